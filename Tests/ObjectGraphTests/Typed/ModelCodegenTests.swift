import ExerciseRunner
import Foundation
import Testing

@testable import ObjectGraph

/// The model files the codegen tests compile: each `.xcdatamodel` of the test fixtures (the
/// broken ones aside) and of `../shared/fixtures/apple-stores` when it is there.
enum CodegenModels {
    /// Tests/ObjectGraphTests/Fixtures.
    static let testFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Every `.xcdatamodel` folder under a folder, sorted, skipping `Broken`.
    static func models(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in walker {
            if url.lastPathComponent == "Broken" {
                walker.skipDescendants()
                continue
            }
            if url.pathExtension == "xcdatamodel" {
                found.append(url)
                walker.skipDescendants()
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The fixture models, and the Apple-written ones when present.
    static var all: [URL] {
        if let reason = AppleFixtures.skipReason { print("codegen of the Apple-written models \(reason)") }
        return models(under: testFixtures)
            + (AppleFixtures.skipReason == nil ? models(under: AppleFixtures.folder) : [])
    }

    /// The compiler and flags SwiftPM built the package with (Exercises/Runner/ExerciseToolchain.swift),
    /// or nil, printing why, when the build description cannot be read.
    static func toolchain() -> ExerciseToolchain? {
        var directory = Bundle.main.bundleURL
        // The products folder holds the test bundle (or is its parent's parent, inside an .xctest).
        for _ in 0..<3 {
            if let toolchain = try? ExerciseToolchain(productsDirectory: directory) { return toolchain }
            directory = directory.deletingLastPathComponent()
        }
        print("codegen tests skipped the compiler: no SwiftPM build description above \(Bundle.main.bundleURL.path)")
        return nil
    }

    /// Runs a program, returning its exit status and output (standard output and error together).
    static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Writes generated files into a fresh directory and type-checks them against the built
    /// ObjectGraph (`swiftc -typecheck`), returning swiftc's status and output.
    static func typeCheck(_ files: [ModelCodegen.File], with toolchain: ExerciseToolchain) throws -> (
        status: Int32, output: String
    ) {
        let directory = try TemporaryDirectory()
        for file in files { try file.contents.write(to: directory.file(file.name), atomically: true, encoding: .utf8) }
        let arguments =
            toolchain.moduleFlags + [
                "-typecheck", "-module-name", "Generated",
                "-module-cache-path", directory.file("ModuleCache").path,
            ]
            + files.map { directory.file($0.name).path }
        return try run(toolchain.swiftc, arguments, in: directory.url)
    }
}

// Apple, Xcode "Generating Code" (Class Definition codegen: one class per entity with @NSManaged
// properties and generated accessors for to-many relationships); NSEntityDescription
// managedObjectClassName (representedClassName).
@Suite struct ModelCodegenTests {
    static let everything = CodegenModels.testFixtures.appendingPathComponent("Everything.xcdatamodel")
    static let toDo = CodegenModels.testFixtures.appendingPathComponent("ToDo.xcdatamodeld")

    @Test(
        "one file per entity, named by representedClassName, with its class, properties and accessors (Xcode Class Definition codegen)"
    )
    func writesOneFilePerEntity() throws {
        let codegen = try ModelCodegen(modelAt: Self.everything)
        let files = codegen.files()
        #expect(files.map(\.name) == ["Book.swift", "Item.swift", "Library.swift", "EverythingModelClasses.swift"])
        let book = try #require(files.first { $0.name == "Book.swift" }).contents
        #expect(book.contains("public final class Book: Item {"))
        #expect(book.contains("@Managed(\"pages\") public var pages: Int32"))
        #expect(book.contains("@Managed(\"lender\") public var lender: Library?"))
        #expect(book.contains("@Managed(\"related\") public var related: Set<Book>"))
        #expect(
            book.contains(
                "public func addToRelated(_ value: Book) { addObjects([value], toRelationship: \"related\") }"))
        let item = try #require(files.first { $0.name == "Item.swift" }).contents
        #expect(item.contains("public class Item: NSManagedObject {"))
        // Generated classes override no validateValue(_:forKey:); a subclass of Item may.
        #expect(book.contains("override public class var validatesEachKey: Bool { false }"))
        #expect(item.contains("override public class var validatesEachKey: Bool { self != Item.self }"))
        let library = try #require(files.first { $0.name == "Library.swift" }).contents
        #expect(library.contains("@Managed(\"items\") public var items: [Item]"))
        #expect(library.contains("public func addToItems(_ values: [Item])"))
        #expect(library.contains("@Managed(\"code\") public var code: UUID?"))
        #expect(library.contains("@Managed(\"settings\") public var settings: [String: String]?"))
        #expect(library.contains("@Managed(\"address\") public var address: [String: Any]?"))
        #expect(library.contains("@Managed(\"scratch\") public var scratch: Any?"))
    }

    @Test("the output depends on the model alone: the same files every time")
    func outputIsDeterministic() throws {
        let first = try ModelCodegen(modelAt: Self.toDo).files()
        let second = try ModelCodegen(modelAt: Self.toDo).files()
        #expect(first == second)
        #expect(first.map(\.name) == ["Category.swift", "ToDo.swift", "ToDoModelClasses.swift"])
    }

    @Test("a transformable attribute keeps a Foundation class, and is Any? for an application's class")
    func transformableTypes() {
        #expect(ModelCodegen.isFoundationType("[String: String]"))
        #expect(ModelCodegen.isFoundationType("NSArray"))
        #expect(ModelCodegen.isFoundationType("[[String]]"))
        #expect(!ModelCodegen.isFoundationType("UIColor"))
        #expect(!ModelCodegen.isFoundationType("[Tag]"))
        #expect(ModelCodegen.propertyName("default") == "`default`")
        // ManagedObject's own names get a suffix; the key stays the model's.
        #expect(ModelCodegen.propertyName("description") == "descriptionValue")
        #expect(ModelCodegen.propertyName("title") == "title")
    }

    @Test(
        "the generated classes of every fixture model type-check against ObjectGraph (swiftc -typecheck)",
        arguments: CodegenModels.all)
    func generatedCodeTypeChecks(_ model: URL) throws {
        guard let toolchain = CodegenModels.toolchain() else { return }
        let result = try CodegenModels.typeCheck(try ModelCodegen(modelAt: model).files(), with: toolchain)
        #expect(result.status == 0, "\(model.lastPathComponent): \(result.output)")
    }

    @Test("names that are Swift keywords or ManagedObject's own properties still compile, keyed by the model's names")
    func awkwardNamesTypeCheck() throws {
        guard let toolchain = CodegenModels.toolchain() else { return }
        let model = try ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("description", .string)
                AttributeDescription("default", .integer16)
                AttributeDescription("isDeleted", .boolean)
                RelationshipDescription("self", toOne: "Note", inverse: nil)
            }
        }
        let files = ModelCodegen(model: model, modelName: "Awkward").files()
        let note = try #require(files.first { $0.name == "Note.swift" }).contents
        #expect(note.contains("@Managed(\"description\") public var descriptionValue: String?"))
        #expect(note.contains("@Managed(\"default\") public var `default`: Int16"))
        let result = try CodegenModels.typeCheck(files, with: toolchain)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("values round-trip through generated classes: inserted, saved to SQLite, fetched typed in another context")
    func valuesRoundTripThroughGeneratedClasses() throws {
        guard let toolchain = CodegenModels.toolchain() else { return }
        if let problem = toolchain.runtimeProblem() {
            print("valuesRoundTripThroughGeneratedClasses skipped: \(problem); `swift build` builds it")
            return
        }
        let directory = try TemporaryDirectory()
        let files = try ModelCodegen(modelAt: Self.toDo).files()
        for file in files { try file.contents.write(to: directory.file(file.name), atomically: true, encoding: .utf8) }
        try """
        import CoreData

        let model = try NSManagedObjectModel(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]), classes: ToDoModelClasses.byName)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                           at: URL(fileURLWithPath: CommandLine.arguments[2]), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let home = Category(context: context)
        home.name = "Home"
        let rent = ToDo(context: context)
        rent.title = "Pay rent"
        rent.dueDate = Date(timeIntervalSinceReferenceDate: 1000)
        rent.completed = true
        let mail = ToDo(context: context)
        mail.title = "Answer mail"
        mail.dueDate = Date(timeIntervalSinceReferenceDate: 2000)
        home.addToTodos(rent)
        home.addToTodos([mail])
        home.removeFromTodos(mail)
        try context.save()

        let other = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        let request = ToDo.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        for todo in try other.fetch(request) {
            print(todo.title ?? "nil", todo.dueDate?.timeIntervalSinceReferenceDate ?? -1, todo.completed, todo.doNotAlert, todo.category?.name ?? "none", todo.category?.todos.count ?? 0)
        }
        """.write(to: directory.file("main.swift"), atomically: true, encoding: .utf8)
        let products = toolchain.productsDirectory.path
        let program = directory.file("program")
        let arguments =
            toolchain.moduleFlags + [
                "-module-name", "RoundTrip", "-Onone", "-module-cache-path", directory.file("ModuleCache").path,
                "-L", products, "-lExerciseCatalog", "-Xlinker", "-rpath", "-Xlinker", products,
                "-o", program.path,
            ] + (files.map(\.name) + ["main.swift"]).map { directory.file($0).path }
        let build = try CodegenModels.run(toolchain.swiftc, arguments, in: directory.url)
        try #require(build.status == 0, "\(build.output)")
        let run = try CodegenModels.run(
            program.path, [Self.toDo.path, directory.file("ToDo.sqlite").path], in: directory.url)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output == "Answer mail 2000.0 false false none 0\nPay rent 1000.0 true false Home 1\n")
    }
}
