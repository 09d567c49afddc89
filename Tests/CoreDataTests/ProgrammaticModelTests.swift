import CoreData
import Testing

/// A model built in code with Apple's classes, as unit tests, libraries and apps without Xcode
/// build theirs: empty descriptions whose properties are set, then `model.entities`.
struct ItemsModel {
    let model = NSManagedObjectModel()
    let item = NSEntityDescription(), special = NSEntityDescription(), tag = NSEntityDescription()
    let title = NSAttributeDescription(), priority = NSAttributeDescription(), tagName = NSAttributeDescription()
    let tags = NSRelationshipDescription(), items = NSRelationshipDescription()

    /// Items with a title and tags, tags with a unique name and items, and special items that
    /// inherit from Item with a priority of their own.
    init() {
        item.name = "Item"
        item.managedObjectClassName = NSStringFromClass(NSManagedObject.self)
        title.name = "title"
        title.attributeType = .stringAttributeType
        title.isOptional = false
        title.defaultValue = "Untitled"
        special.name = "SpecialItem"
        priority.name = "priority"
        priority.attributeType = .integer16AttributeType
        priority.defaultValue = 0
        tag.name = "Tag"
        tagName.name = "name"
        tagName.attributeType = .stringAttributeType
        tagName.isOptional = false
        tags.name = "tags"
        tags.destinationEntity = tag
        tags.minCount = 0
        tags.maxCount = 0
        tags.deleteRule = .nullifyDeleteRule
        items.name = "items"
        items.destinationEntity = item
        items.maxCount = 0
        tags.inverseRelationship = items
        items.inverseRelationship = tags
        item.properties = [title, tags]
        special.properties = [priority]
        tag.properties = [tagName, items]
        tag.uniquenessConstraints = [["name"]]
        item.subentities = [special]
        model.entities = [item, special, tag]
    }

    /// The same model as Xcode writes it in a model file's `contents`.
    static let xcodeContents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" \
        systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Item" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="title" attributeType="String" defaultValueString="Untitled"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" \
        inverseName="items" inverseEntity="Tag"/>
            </entity>
            <entity name="SpecialItem" representedClassName="NSManagedObject" parentEntity="Item" syncable="YES">
                <attribute name="priority" optional="YES" attributeType="Integer 16" defaultValueString="0" \
        usesScalarValueType="YES"/>
            </entity>
            <entity name="Tag" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" \
        inverseName="tags" inverseEntity="Item"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="name"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
        </model>
        """
}

/// Models built in code with Apple's classes and setters.
@Suite @MainActor struct ProgrammaticModelTests {
    /// A container on a SQLite store in `folder`, its stores loaded, for `model`.
    func container(_ model: NSManagedObjectModel, in folder: URL) -> (NSPersistentContainer, Error?) {
        let container = NSPersistentContainer(name: "Items", managedObjectModel: model)
        let store = NSPersistentStoreDescription(url: folder.appendingPathComponent("Items.sqlite"))
        container.persistentStoreDescriptions = [store]
        nonisolated(unsafe) var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        return (container, failure)
    }

    // https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/entities
    // https://developer.apple.com/documentation/coredata/nsentitydescription/managedobjectmodel
    // https://developer.apple.com/documentation/coredata/nsrelationshipdescription/destinationentity
    @Test("The model's entities and properties are the objects the program made, linked both ways")
    func identity() throws {
        let m = ItemsModel()
        #expect(m.model.entities.contains { $0 === m.item })
        #expect(m.item.managedObjectModel === m.model)
        #expect(m.title.entity === m.item)
        #expect(m.item.attributesByName["title"] === m.title)
        #expect(m.special.attributesByName["title"] === m.title)
        #expect(m.special.superentity === m.item)
        #expect(m.item.subentities.map(\.name) == ["SpecialItem"])
        #expect(m.tags.destinationEntity === m.tag && m.tags.inverseRelationship === m.items)
        #expect(m.tags.isToMany && m.items.isToMany)
        #expect(m.model.entitiesByName["Tag"] === m.tag)
        #expect(m.item.relationshipsByName["tags"] === m.tags)
        #expect(m.special.isKindOf(entity: m.item) && !m.item.isKindOf(entity: m.special))
        #expect(m.item.propertiesByName.keys.sorted() == ["tags", "title"])
    }

    // https://developer.apple.com/documentation/coredata/nsentitydescription/versionhash
    // https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/entityversionhashesbyname
    @Test("The version hashes equal those of the same model read from an Xcode model file")
    func versionHashesMatchTheModelFile() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Items.xcdatamodel", isDirectory: true)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        let contents = file.appendingPathComponent("contents")
        try ItemsModel.xcodeContents.write(to: contents, atomically: true, encoding: .utf8)
        let fromFile = try #require(NSManagedObjectModel(contentsOf: file))
        let m = ItemsModel()
        #expect(m.model.entityVersionHashesByName == fromFile.entityVersionHashesByName)
        #expect(m.model.entityVersionHashesByName.count == 3)
        #expect(m.item.versionHash == fromFile.entitiesByName["Item"]?.versionHash)
    }

    // https://developer.apple.com/documentation/coredata/nspersistentcontainer/init(name:managedobjectmodel:)
    // https://developer.apple.com/documentation/coredata/nsentitydescription/subentities
    @Test("A model built in code stores, fetches and relates objects in SQLite, sub-entities included")
    func storesAndFetches() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (container, failure) = container(ItemsModel().model, in: folder)
        #expect(failure == nil)
        let context = container.viewContext
        let first = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
        #expect(first.value(forKey: "title") as? String == "Untitled")
        first.setValue("First", forKey: "title")
        let special = NSEntityDescription.insertNewObject(forEntityName: "SpecialItem", into: context)
        special.setValue("Special", forKey: "title")
        special.setValue(3, forKey: "priority")
        let swift = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        swift.setValue("swift", forKey: "name")
        first.mutableSetValue(forKey: "tags").add(swift)
        special.mutableSetValue(forKey: "tags").add(swift)
        try context.save()
        context.reset()

        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let fetched = try context.fetch(request)
        #expect(fetched.map { $0.value(forKey: "title") as? String } == ["First", "Special"])
        #expect(fetched.map(\.entity.name) == ["Item", "SpecialItem"])
        #expect(fetched[1].value(forKey: "priority") as? Int16 == 3)
        let tag = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag")).first)
        #expect(tag.mutableSetValue(forKey: "items").count == 2)
        #expect(fetched[0].mutableSetValue(forKey: "tags").contains(tag))
    }

    // https://developer.apple.com/documentation/coredata/nsentitydescription/uniquenessconstraints
    @Test("A uniqueness constraint set in code is kept by the store: a second tag of one name is refused")
    func uniquenessConstraint() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (container, failure) = container(ItemsModel().model, in: folder)
        #expect(failure == nil)
        let context = container.viewContext
        for _ in 0..<2 {
            NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context).setValue("swift", forKey: "name")
        }
        #expect(throws: (any Error).self) { try context.save() }
        context.rollback()
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        for _ in 0..<2 {
            NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context).setValue("swift", forKey: "name")
        }
        try context.save()
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Tag")) == 1)
    }

    // https://developer.apple.com/documentation/coredata/nspersistentcontainer/loadpersistentstores(completionhandler:)
    @Test("A model whose relationship points outside it fails to load with an error naming the relationship")
    func invalidModelFailsToLoad() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let m = ItemsModel()
        let model = NSManagedObjectModel()
        let orphan = NSEntityDescription()
        orphan.name = "Orphan"
        let lost = NSRelationshipDescription()
        lost.name = "lost"
        lost.destinationEntity = m.tag
        lost.maxCount = 1
        orphan.properties = [lost]
        model.entities = [orphan]
        let (_, failure) = container(model, in: folder)
        let message = String(describing: try #require(failure))
        #expect(message.contains("Orphan.lost") && message.contains("Tag"))
    }
}
