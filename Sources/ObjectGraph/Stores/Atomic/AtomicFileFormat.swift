import Foundation

/// One way of holding an atomic store in a file: Core Data's XML document (``XMLStoreFormat``)
/// or a binary property list (``BinaryStoreFormat``). ``AtomicStoreFile`` does what both share
/// (finding the file, naming it in errors, writing it safely); a format only turns bytes into
/// a store and back.
protocol AtomicFileFormat: Sendable {
    /// The store type whose files are in this format.
    var type: StoreType { get }

    /// Whether `data`, a file's first bytes, looks like a file of this format.
    func recognizes(_ data: Data) -> Bool

    /// The store a file holds; errors say what is wrong but not the file, which the caller names.
    func decode(_ data: Data, model: ManagedObjectModel) throws -> AtomicStoreFile.Loaded

    /// The metadata and each object's entity name, without turning values into objects.
    func outline(of data: Data) throws -> AtomicStoreFile.Outline

    /// The file's bytes for a store.
    func encode(
        _ contents: AtomicContents, identifier: String, metadata: [String: Any], model: ManagedObjectModel
    ) throws -> Data
}

extension AtomicFileFormat {
    /// Foundation's property list data for a store file; its NSError, for a value no property
    /// list holds (a keyed archive's UID that a damaged file held, found by Fuzz/run.sh
    /// binarystore, whose check saves what it reads), as the save's CoreDataError.
    func propertyListData(_ value: Any, format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: value, format: format, options: 0)
        } catch {
            throw CoreDataError(
                .persistentStoreSave,
                "The store's contents cannot be written as a property list: \(error.localizedDescription) (a value the file held when it was read, or metadata set since, is of a type no property list holds)"
            )
        }
    }

    /// An attribute value read back from text: the XML store's, or the strings the binary
    /// store keeps decimals, UUIDs and URLs as.
    func value(_ text: String, type: AttributeType) throws -> Any {
        func bad() -> CoreDataError {
            CoreDataError(.persistentStoreOpen, "\"\(text)\" is not a valid \(type.xcodeName) value")
        }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let i = Int(text) else { throw bad() }
            return i
        case .boolean: return text == "1" || text.lowercased() == "true"
        case .double, .float:
            guard let d = Double(text) else { throw bad() }
            return d
        case .decimal:
            guard let d = Decimal(string: text) else { throw bad() }
            return d
        case .string: return text
        case .date:
            guard let t = Double(text) else { throw bad() }
            return Date(timeIntervalSinceReferenceDate: t)
        case .binaryData:
            // Core Data's XML store (and Xcode's xcmapping.xml) breaks base64 into lines.
            guard let d = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { throw bad() }
            return d
        case .uuid:
            guard let u = UUID(uuidString: text) else { throw bad() }
            return u
        case .uri:
            guard let u = URL(string: text) else { throw bad() }
            return u
        case .undefined, .transformable, .objectID, .composite:
            throw CoreDataError(
                .persistentStoreOpen,
                "The store holds a \(type.xcodeName) value, which ObjectGraph's atomic stores do not read yet")
        }
    }
}
