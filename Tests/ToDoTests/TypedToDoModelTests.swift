import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import ToDoApp

/// The model the `todo` program opens: the ToDo model's versions with the generated classes
/// (ToDoModels.model(version:classes:)). Its objects are ToDo and Category instances, read and
/// written through typed properties, and the stores it writes are the plain model's.
@Suite struct TypedToDoModelTests {
    /// A context on a new store of `type`, through `model`.
    private static func context(_ model: ManagedObjectModel, at url: URL, type: StoreType) throws
        -> ManagedObjectContext
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test(
        "The classes change no version hash, so either model opens the other's stores (NSEntityDescription.versionHash)",
        arguments: [1, 2])
    func theClassesChangeNoVersionHash(_ version: Int) throws {
        let typed = try ToDoModels.model(version: version, classes: ToDoModelClasses.byName)
        let plain = try ToDoModels.model(version: version)
        #expect(typed.entityVersionHashesByName == plain.entityVersionHashesByName)
        #expect(typed.versionIdentifiers == plain.versionIdentifiers)
        #expect(try typed.entity(named: "ToDo").managedObjectClass == ToDo.self)
        #expect(try typed.entity(named: "Category").managedObjectClass == Category.self)
        // The plain models keep ManagedObject: the chapters and the migration policy use them.
        #expect(try plain.entity(named: "ToDo").managedObjectClass == ManagedObject.self)
    }

    @Test("An unknown version is an error, not a trap (NSInvalidArgumentException)")
    func anUnknownVersionThrows() {
        #expect(throws: CoreDataError.self) { try ToDoModels.model(version: 3, classes: ToDoModelClasses.byName) }
    }

    @Test(
        "Objects made with ToDo(context:) and typed setters read back by key from the plain model, and typed through ToDo.fetchRequest() (NSManagedObject.init(context:), NSFetchRequest<ResultType>)",
        arguments: [StoreType.xml, .sqlite])
    func typedWritesReadBackByKeyAndTyped(_ storeType: StoreType) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("ToDo.\(storeType == .xml ? "xml" : "sqlite")")
        let due = Date(timeIntervalSinceReferenceDate: 265_539_600)

        let writer = try Self.context(
            ToDoModels.model(version: 2, classes: ToDoModelClasses.byName), at: url, type: storeType)
        let home = Category(context: writer)
        home.name = "Home"
        let todo = ToDo(context: writer)
        todo.title = "Pay rent"
        todo.dueDate = due
        todo.category = home
        // Required Booleans with a default read it before they are set (Core Data's scalar accessors).
        #expect(todo.completed == false && todo.doNotAlert == false)
        todo.doNotAlert = true
        #expect(home.todos == [todo])
        try writer.save()

        let plain = try Self.context(ToDoModels.version2(), at: url, type: storeType)
        let stored = try #require(plain.fetch(FetchRequest(entityName: "ToDo")).first)
        #expect(type(of: stored) == ManagedObject.self)
        #expect(try stored.checkedValue(forKey: "title") as? String == "Pay rent")
        #expect(try stored.checkedValue(forKey: "dueDate") as? Date == due)
        #expect(try stored.checkedValue(forKey: "doNotAlert") as? Bool == true)
        #expect(try stored.checkedValue(forKey: "completed") as? Bool == false)
        #expect(try stored.checkedValue(forKeyPath: "category.name") as? String == "Home")

        let reader = try Self.context(
            ToDoModels.model(version: 2, classes: ToDoModelClasses.byName), at: url, type: storeType)
        let fetched: [ToDo] = try reader.fetch(ToDo.fetchRequest())
        let read = try #require(fetched.first)
        #expect(fetched.count == 1)
        #expect(
            read.title == "Pay rent" && read.dueDate == due && read.doNotAlert && !read.completed
                && read.lastAlertDate == nil)
        #expect(read.category?.name == "Home")
        #expect(read.category?.todos.map(\.title) == ["Pay rent"])
    }

    @Test(
        "Running as version 1, the program's to-dos are ToDo objects too, without version 2's properties (NSManagedObjectModel versions)"
    )
    func versionOneObjectsAreToDos() throws {
        let harness = try ToDoHarness()
        try harness.run("categories", "add", "Home", "--model-version", "1")
        try harness.run("add", "Pay rent", "--due", "+3m", "--category", "Home", "--model-version", "1")
        #expect(
            try harness.run("list", "--model-version", "1").contains { $0.contains("Pay rent") && $0.contains("Home") })
        let context = try Self.context(
            ToDoModels.model(version: 1, classes: ToDoModelClasses.byName), at: harness.storeURL, type: .xml)
        let todo = try #require(context.fetch(ToDo.fetchRequest()).first)
        #expect(todo.title == "Pay rent" && todo.category?.name == "Home")
        #expect(todo.entity.attribute(named: "doNotAlert") == nil)
    }

    @Test(
        "A to-do whose category another context deleted is an error for the item, not a trap (NSManagedObjectReferentialIntegrityError 133000)"
    )
    func aCategoryDeletedElsewhereIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("ToDo.sqlite")
        let model = try ToDoModels.model(version: 2, classes: ToDoModelClasses.byName)
        let writer = try Self.context(model, at: url, type: .sqlite)
        let home = Category(context: writer)
        home.name = "Home"
        let todo = ToDo(context: writer)
        todo.title = "Pay rent"
        todo.category = home
        try writer.save()

        // The reader loads the to-do; its category stays a fault.
        let reader = try Self.context(model, at: url, type: .sqlite)
        let read = try #require(reader.fetch(ToDo.fetchRequest()).first)
        #expect(read.category?.isFault == true)
        // Another process deletes the category's row behind the reader's back.
        let other = try Self.context(ToDoModels.version2(), at: url, type: .sqlite)
        let request = FetchRequest(entityName: "Category")
        request.predicate = try Predicate(checkedFormat: "name == %@", "Home")
        try other.checkedDelete(try #require(other.fetch(request).first))
        try other.save()

        let error = #expect(throws: CoreDataError.self) { try ToDoItem(read, version: 2) }
        #expect(error?.code == .referentialIntegrity, "\(String(describing: error))")
    }
}
