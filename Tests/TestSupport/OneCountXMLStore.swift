import Foundation

/// An XML store file as this package wrote them before keys counted per entity: one
/// `nextObjectID` for the whole file, as Core Data's XML store numbers objects. The tests that
/// open such a file build it here, taking the store UUID and metadata from a file the current
/// code wrote for the same model, so that the file opens.
public enum OneCountXMLStore {
    /// Why a header could not be reused.
    public struct MissingPart: Error, CustomStringConvertible {
        /// The element that was not found.
        public let element: String
        /// Says which.
        public var description: String { "the written store file has no \(element)" }
    }

    /// The file's text: `written`'s UUID and metadata, `nextObjectID`, then `objects` (the
    /// `<object>` elements, indented by four spaces).
    public static func text(reusingHeaderOf written: String, nextObjectID: Int, objects: String) throws -> String {
        guard let uuid = written.firstRange(of: "<UUID>").map({ written[$0.upperBound...].prefix { $0 != "<" } }) else {
            throw MissingPart(element: "<UUID>")
        }
        guard let start = written.firstRange(of: "<metadata>"), let end = written.firstRange(of: "</metadata>") else {
            throw MissingPart(element: "<metadata>")
        }
        let metadata = written[start.lowerBound..<end.upperBound]
        return """
            <?xml version="1.0" standalone="yes"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>\(uuid)</UUID>
                    <nextObjectID>\(nextObjectID)</nextObjectID>
                    \(metadata)
                </databaseInfo>
            \(objects)
            </database>

            """
    }
}
