import Foundation

/// What a fetch request can return (NSFetchRequestResult): managed objects, their IDs,
/// dictionaries and counts. A managed object class gets `Book.fetchRequest()` and `Book.entity()`
/// typed as itself.
///
/// Apple's is an Objective-C protocol of classes; here object IDs are values, so the protocol is
/// not class-bound.
public protocol FetchRequestResult {}

extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}
extension NSDictionary: FetchRequestResult {}
extension NSNumber: FetchRequestResult {}

extension FetchRequestResult where Self: ManagedObject {
    /// A request for this class's objects (fetchRequest()): `Book.fetchRequest()` is a
    /// `FetchRequest<Book>` for the entity whose class is `Book`.
    ///
    /// The entity is the one a model declares with this class (``EntityDescription/managedObjectClass``,
    /// or `representedClassName` through ``XcodeModelLoader/classes``); for a class no model declares,
    /// the entity named as the class, as Xcode names a new entity's class after it. Fetching then
    /// throws if that entity's objects are not of this class.
    public static func fetchRequest() -> FetchRequest<Self> {
        let name =
            ManagedObjectClassRegistry.shared.entity(of: Self.self)?.name
            ?? ManagedObjectClassRegistry.className(of: Self.self)
        return FetchRequest<Self>(entityName: name)
    }

    /// The entity of this class (entity()): the one the latest model made declares with this class.
    ///
    /// A class no model declares is a programming error: the call stops the program with a message
    /// saying how to declare it. With a context at hand, ``entity(in:)`` throws instead.
    public static func entity() -> EntityDescription {
        guard let entity = ManagedObjectClassRegistry.shared.entity(of: Self.self) else {
            fatalError(
                "\(Self.self).entity(): no model declares the class \(Self.self); declare it on its entity: EntityDescription(\"\(ManagedObjectClassRegistry.className(of: Self.self))\", class: \(Self.self).self), or XcodeModelLoader(classes: [\"\(ManagedObjectClassRegistry.className(of: Self.self))\": \(Self.self).self])"
            )
        }
        return entity
    }

    /// The entity of this class in a model (entityForName:inManagedObjectContext: by class).
    ///
    /// When several entities share the class, the one named as the class wins, else the first
    /// by name (as Core Data lets several entities share a class).
    ///
    /// - Throws: ``CoreDataError`` with the exception NSInvalidArgumentException
    ///   (``CoreDataError/ExceptionName/invalidArgument``) when no entity of the model has this
    ///   class, naming the entity of the same name whose class is another, if there is one.
    public static func entity(in model: ManagedObjectModel) throws -> EntityDescription {
        let className = ManagedObjectClassRegistry.className(of: Self.self)
        let matching = model.entities.filter { ObjectIdentifier($0.managedObjectClass) == ObjectIdentifier(Self.self) }
        if let entity = matching.first(where: { $0.name == className }) ?? matching.first { return entity }
        if let named = model.entitiesByName[className] {
            throw CoreDataError(
                exception: .invalidArgument,
                "The entity \(named.name) makes objects of the class \(named.managedObjectClass), not \(Self.self): declare its class, EntityDescription(\"\(named.name)\", class: \(Self.self).self) or XcodeModelLoader(classes: [\"\(className)\": \(Self.self).self])"
            )
        }
        throw CoreDataError(
            exception: .invalidArgument,
            "No entity of the model has the class \(Self.self); its entities are \(model.entities.map(\.name).joined(separator: ", "))"
        )
    }
}

extension ManagedObject {
    /// Inserts a new object of this class's entity into a context (init(context:)):
    /// `let book = Book(context: context)`.
    ///
    /// The entity is the one the context's model declares with this class (see
    /// ``FetchRequestResult/entity(in:)``). A class the model does not declare, an abstract
    /// entity, or a coordinator without a store is a programming error, as in Core Data: the
    /// call stops the program with a message naming the class; ``ManagedObjectContext/insertNewObject(forEntityName:)``
    /// throws instead.
    public convenience init(context: ManagedObjectContext) {
        let entity: EntityDescription
        do {
            context.checkConfinement()
            if let cached = context.classInsertTemplate, cached.managedObjectClass == ObjectIdentifier(Self.self) {
                entity = cached.template.entity
            } else {
                entity = try Self.entity(in: context.model)
                let template = try context.insertTemplate(forEntityName: entity.name)
                context.classInsertTemplate = (ObjectIdentifier(Self.self), template)
            }
        } catch {
            fatalError("\(Self.self)(context:): \(error)")
        }
        // Through the designated initializer, as Apple's init(context:) does, so that a
        // subclass's override of init(entity:insertInto:) runs.
        self.init(entity: entity, insertInto: context)
    }

    /// Adds objects to a to-many relationship, keeping the inverse in step; an ordered one gets
    /// them at its end. What generated `addTo<Key>(_:)` helpers call (mutableSetValueForKey: and
    /// addObject:); a key that is not a to-many is a programming error that stops the program.
    public func addObjects<S: Sequence>(_ objects: S, toRelationship key: String) where S.Element: ManagedObject {
        editRelationship(key) { current in
            for object in objects where !current.contains(object) { current.append(object) }
        }
    }

    /// Removes objects from a to-many relationship, keeping the inverse in step. What generated
    /// `removeFrom<Key>(_:)` helpers call; a key that is not a to-many stops the program.
    public func removeObjects<S: Sequence>(_ objects: S, fromRelationship key: String) where S.Element: ManagedObject {
        let removed = Set(objects.map(ObjectIdentifier.init))
        editRelationship(key) { current in current.removeAll { removed.contains(ObjectIdentifier($0)) } }
    }

    /// Reads a to-many's members in order (a set's by primary key, as setting a set orders
    /// them), lets `edit` change them, and sets the result.
    private func editRelationship(_ key: String, _ edit: (inout [ManagedObject]) -> Void) {
        do {
            guard let r = entity.relationship(named: key), r.isToMany else {
                throw CoreDataError(
                    exception: .invalidArgument, "\(entity.name).\(key) is not a to-many relationship",
                    objectURI: objectID.uriString, key: key)
            }
            let stored = try checkedValue(forKey: key)
            var members = (stored as? [ManagedObject]) ?? (stored as? Set<ManagedObject>).map { Array($0) } ?? []
            let before = members.count
            edit(&members)
            if members.count == before && !r.isOrdered { return }
            try checkedSetValue(r.isOrdered ? members as Any : Set(members) as Any, forKey: key)
        } catch {
            fatalError("\(type(of: self)).\(key): \(error)")
        }
    }
}

/// The entity each managed object class belongs to, by the models made so far: what
/// `Book.entity()` and `Book.fetchRequest()` read, as Core Data's class methods find the entity
/// among the models loaded.
final class ManagedObjectClassRegistry: @unchecked Sendable {
    // @unchecked Sendable: `entities` is read and written only under `lock`.
    static let shared = ManagedObjectClassRegistry()

    private let lock = NSLock()
    private var entities: [ObjectIdentifier: EntityDescription] = [:]

    /// Records the entities of a model that name a class of their own; for a class several
    /// entities share, the one named as the class (else the first by name). A later model's
    /// entity replaces an earlier one's.
    func register(_ modelEntities: [EntityDescription]) {
        var found: [ObjectIdentifier: EntityDescription] = [:]
        for entity in modelEntities
        where ObjectIdentifier(entity.managedObjectClass) != ObjectIdentifier(ManagedObject.self) {
            let id = ObjectIdentifier(entity.managedObjectClass)
            if found[id] == nil || entity.name == Self.className(of: entity.managedObjectClass) { found[id] = entity }
        }
        guard !found.isEmpty else { return }
        lock.lock()
        entities.merge(found) { _, new in new }
        lock.unlock()
    }

    /// The entity a class belongs to, if a model declares it.
    func entity(of type: ManagedObject.Type) -> EntityDescription? {
        lock.lock()
        defer { lock.unlock() }
        return entities[ObjectIdentifier(type)]
    }

    /// A class's name without its module: `Book` for `App.Book`.
    static func className(of type: AnyClass) -> String {
        String(describing: type)
    }
}
