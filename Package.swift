// swift-tools-version:6.0
// The workbook: Core Data's fetching, predicates and migration, taught and implemented on Linux.
import PackageDescription

/// A chapter of the book. It lives in Chapters/<folder>: its library (`<folder>Chapter`, the
/// sections the workbook tool and the tests run in process) in Chapter/, and the small
/// executable that runs them, main.swift, beside it.
struct BookChapter {
    let folder: String
    let executable: String
    var resources: [Resource]? = nil
    /// What the chapter's library needs beyond CoreData, ObjectGraph and WorkbookSupport.
    var dependencies: [Target.Dependency] = []
    var library: String { folder + "Chapter" }
}

/// The chapters, in book order: the one place Package.swift names them. The workbook tool, the
/// exercises' catalog, the chapter tests and the book's tests depend on all of them.
let chapters = [
    BookChapter(folder: "Fetching", executable: "fetching"),
    BookChapter(folder: "Predicates", executable: "predicates"),
    BookChapter(folder: "Compounding", executable: "compounding"),
    // Its fixtures are stores that version 1 of the ToDo model wrote.
    BookChapter(folder: "Versioning", executable: "versioning", resources: [.copy("Fixtures")]),
    BookChapter(folder: "MigrationPolicies", executable: "migration-policies"),
    // Part II (the parts are AllChapters' chapterTypes; a manifest cannot import code).
    BookChapter(folder: "Contexts", executable: "contexts"),
    BookChapter(folder: "Changes", executable: "changes"),
    BookChapter(folder: "Conflicts", executable: "conflicts"),
    BookChapter(folder: "Batch", executable: "batch"),
    // On PostgreSQL: the store's connections, and the private server it starts.
    BookChapter(folder: "Scaling", executable: "scaling", dependencies: ["ObjectGraphPostgres", "PostgresServer"]),
]
let chapterLibraries = chapters.map { Target.Dependency.target(name: $0.library) }
let chapterExecutables = chapters.map { Target.Dependency.target(name: $0.executable) }

let package = Package(
    name: "CoreDataWorkbook",
    platforms: [.macOS(.v13)],
    products: [
        // Apple's Core Data API on Linux: `import CoreData` gives Apple's names and shapes.
        .library(name: "CoreData", targets: ["CoreData"]),
        // The persistence module under CoreData, with its own Swift names.
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        // The PostgreSQL store type, on PostgresNIO: a product of its own, so that a package (and
        // every chapter) that uses SQLite alone never builds SwiftNIO.
        .library(name: "ObjectGraphPostgres", targets: ["ObjectGraphPostgres"]),
    ] + chapters.map { .executable(name: $0.executable, targets: [$0.executable]) } + [
        .executable(name: "workbook", targets: ["workbook"]),
        .executable(name: "todo", targets: ["todo"]),
        .executable(name: "bench", targets: ["bench"]),
        // What each exercise's own program links: the checks, the chapters and ObjectGraph as one
        // shared library, so an exercise builds in about a second and runs in its own process.
        .library(name: "ExerciseCatalog", type: .dynamic, targets: ["ExerciseCatalog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // PostgreSQL's wire protocol, for ObjectGraphPostgres only.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Markdown to HTML for the rendered book (small, pure Swift; no Markdown parser in Foundation).
        .package(url: "https://github.com/JohnSundell/Ink", exact: "0.6.0"),
        // DocC: adds only a command plugin (generate-documentation, preview-documentation); nothing is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // SQLite's connection settings that only the variadic sqlite3_db_config() sets.
        .target(name: "CSQLiteDefenses", path: "Sources/CSQLiteDefenses", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "ObjectGraph",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift"), "CSQLiteDefenses"],
            path: "Sources/ObjectGraph"
        ),
        // Apple's names (NSManagedObjectContext, NSPredicate, NSSQLiteStoreType, ...) for
        // ObjectGraph's types; what chapters, exercises and applications import.
        .target(name: "CoreData", dependencies: ["ObjectGraph"], path: "Sources/CoreData"),
        // The PostgreSQL store's connections (PostgresNIO): the store itself, its SQL and its
        // semantics are ObjectGraph's (Stores/PostgreSQL), reached through `PostgresWire`.
        .target(
            name: "ObjectGraphPostgres",
            dependencies: [
                "ObjectGraph", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/ObjectGraphPostgres"
        ),
        // Zarra's ToDo model (versions 1 and 2) and his Listing 12 policy, defined once: the
        // chapters and `todo` (through WorkbookSupport), ObjectGraph's tests, the migration child
        // and the benchmark use it. Only ObjectGraph, so the library's tests need no workbook.
        .target(name: "ZarraToDo", dependencies: ["ObjectGraph", "CoreData"], path: "Sources/ZarraToDo"),
        // What the chapters share: sections, the workbench, diagrams. Nothing a library user needs.
        .target(
            name: "WorkbookSupport",
            dependencies: [
                "ObjectGraph", "ZarraToDo", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/WorkbookSupport",
            // Zarra's ToDo model as Xcode saves it: both versions, version 2 current.
            resources: [.copy("Resources/ToDo.xcdatamodeld")]
        ),
        // The chapters: each a library (its sections, which the workbook tool and the tests run
        // in process) and a small executable in the folder above it; see `chapters` below.
    ]
        + chapters.flatMap { chapter -> [Target] in
            [
                .target(
                    name: chapter.library,
                    dependencies: ["CoreData", "ObjectGraph", "WorkbookSupport"] + chapter.dependencies,
                    path: "Chapters/\(chapter.folder)/Chapter",
                    resources: chapter.resources),
                .executableTarget(
                    name: chapter.executable,
                    dependencies: [
                        .target(name: chapter.library), "WorkbookSupport",
                        .product(name: "ArgumentParser", package: "swift-argument-parser"),
                    ],
                    path: "Chapters/\(chapter.folder)", exclude: ["Chapter"], sources: ["main.swift"]
                ),
            ]
        } + [
            // The chapters' one list, for the workbook tool and the tests (Package.swift keeps its own).
            .target(
                name: "AllChapters", dependencies: ["ObjectGraph", "WorkbookSupport"] + chapterLibraries,
                path: "Chapters/AllChapters"),
            // Exercises. What the learner edits (Exercises/Workspace) and the reference solutions
            // (Exercises/Solutions) belong to no target: each exercise is one file that
            // ExerciseRunner builds into a program of its own, with the catalog's checks linked in
            // (the ExerciseCatalog library above), so one that does not compile or traps stops
            // nothing else, `swift build` and `swift test` included.
            .target(
                name: "ExerciseCatalog",
                dependencies: ["WorkbookSupport", "CoreData", "ObjectGraph"] + chapterLibraries,
                path: "Exercises/Catalog"),
            .target(
                name: "ExerciseRunner", dependencies: ["ExerciseCatalog", "WorkbookSupport"], path: "Exercises/Runner"),
            // The workbook tool: chapters, the book, the rendered book, exercises.
            .executableTarget(
                name: "workbook",
                dependencies: [
                    "WorkbookSupport", "AllChapters", "ExerciseCatalog", "ExerciseRunner",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                    .product(name: "Ink", package: "Ink"),
                ],
                path: "Sources/workbook"
            ),
            // Zarra's ToDo application: its commands as a library the tests drive in process, and
            // the executable in the folder above it. Written in Apple's names (CoreData); ObjectGraph
            // for the migration step `todo migrate` runs on its own (MigrationStep).
            .target(
                name: "ToDoApp",
                // ObjectGraphPostgres: `--store postgres://...` keeps the to-dos in a PostgreSQL schema.
                dependencies: [
                    "CoreData", "ObjectGraph", "ObjectGraphPostgres", "WorkbookSupport",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                ],
                path: "Sources/todo/App"
            ),
            .executableTarget(
                name: "todo",
                dependencies: ["ToDoApp"],
                path: "Sources/todo", exclude: ["App"], sources: ["main.swift"]
            ),
            .executableTarget(
                name: "bench",
                // TestSupport for its throwaway PostgreSQL cluster (PostgresTestServer), one definition
                // for the tests and `bench --store postgres`.
                dependencies: [
                    "ObjectGraph", "ObjectGraphPostgres", "ZarraToDo", "TestSupport",
                    .product(name: "GRDB", package: "GRDB.swift"),
                    .product(name: "PostgresNIO", package: "postgres-nio"),
                ],
                path: "Benchmarks/bench"
            ),
            // Saves in a loop until killed; the crash-safety test runs it.
            .executableTarget(
                name: "objectgraph-crash-child",
                dependencies: ["ObjectGraph"],
                path: "Tests/CrashChild"
            ),
            // Migrates a store until killed; the migration crash-safety test runs it.
            .executableTarget(
                name: "objectgraph-migration-child",
                dependencies: ["ObjectGraph", "ObjectGraphPostgres", "ZarraToDo"],
                path: "Tests/MigrationChild"
            ),
            // Writes to a store beside other processes; the multi-process tests run several.
            .executableTarget(
                name: "objectgraph-writer-child",
                dependencies: ["ObjectGraph", "ObjectGraphPostgres"],
                path: "Tests/WriterChild"
            ),
            // Each reader of outside bytes as the fuzzers drive it (Fuzz/README.md): the suite's bounded
            // fuzz and the libFuzzer targets below call the same checks. Public API only, so it also
            // builds in release, where ObjectGraph's internals are not visible.
            .target(name: "ReaderFuzzing", dependencies: ["ObjectGraph"], path: "Fuzz/Readers"),
            // What several test targets share: finding the executables they run as processes, and
            // the XML store files of the one-count format older versions wrote.
            .target(name: "TestSupport", dependencies: ["PostgresServer"], path: "Tests/TestSupport"),
            // A throwaway PostgreSQL server (initdb, pg_ctl): the tests', the benchmark's and chapter
            // 10's, one definition. Foundation only.
            .target(name: "PostgresServer", path: "Sources/PostgresServer"),
            .testTarget(
                name: "ObjectGraphTests",
                // ExerciseRunner for its ExerciseToolchain: the codegen tests compile generated classes
                // with the compiler and module flags SwiftPM used.
                dependencies: [
                    "ObjectGraph", "ObjectGraphPostgres", "ZarraToDo", "TestSupport", "ExerciseRunner",
                    "objectgraph-crash-child", "objectgraph-migration-child", "objectgraph-writer-child",
                    "ReaderFuzzing", .product(name: "GRDB", package: "GRDB.swift"),
                ],
                path: "Tests/ObjectGraphTests",
                // Xcode model files the tests read in place (located through #filePath).
                exclude: ["Fixtures"]
            ),
            // Apple's API through the CoreData module alone: each test names the Apple page it follows.
            .testTarget(name: "CoreDataTests", dependencies: ["CoreData"], path: "Tests/CoreDataTests"),
            .testTarget(
                name: "BookTests",
                // ObjectGraph for the errata's behaviour tests; the executables the README's commands
                // run (ReadmeCommandsTests), built before the tests.
                dependencies: ["workbook", "WorkbookSupport", "ObjectGraph", "TestSupport", "todo", "AllChapters"]
                    + chapterExecutables,
                path: "Tests/BookTests"
            ),
            .testTarget(
                name: "ExerciseTests",
                // The workbook tool, which the tests run as a learner would.
                dependencies: [
                    "ExerciseCatalog", "ExerciseRunner", "WorkbookSupport", "ObjectGraph", "TestSupport", "workbook",
                ],
                path: "Tests/ExerciseTests"
            ),
            .testTarget(
                name: "ToDoTests",
                dependencies: ["TestSupport", "ToDoApp", "ObjectGraph", "WorkbookSupport", "todo"],
                path: "Tests/ToDoTests"
            ),
            // Apple's Core Data articles written as a Mac developer writes them, against the CoreData
            // product alone; each `// LINUX:` line is a change Linux needed (LEDGER.md counts them).
            .testTarget(
                name: "CoreDataSampleTests",
                dependencies: ["CoreData"],
                path: "Tests/CoreDataSampleTests",
                exclude: ["LEDGER.md"],
                resources: [.copy("Resources/Earthquakes.xcdatamodeld"), .copy("Resources/Library.xcdatamodeld")]
            ),
            .testTarget(
                name: "ChapterTests",
                dependencies: ["ObjectGraph", "CoreData", "WorkbookSupport", "TestSupport", "AllChapters"]
                    + chapterLibraries,
                path: "Tests/ChapterTests"
            ),
        ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer targets, one per reader in Fuzz/Targets (the names of FuzzedReaders.all), only
// when Fuzz/run.sh builds them with OBJECTGRAPH_FUZZ=1: they link libFuzzer, which only
// -sanitize=fuzzer brings, so a normal build cannot link them.
let fuzzedReaders = [
    "predicate", "model", "currentversion", "mapping", "cdm", "xmlstore", "binarystore", "keyedarchive",
]
if Context.environment["OBJECTGRAPH_FUZZ"] == "1" {
    // libFuzzer's driver, started from each target's main (SwiftPM links main to it); its
    // declaration of the C function needs @_extern.
    package.targets.append(
        .target(name: "FuzzDriver", path: "Fuzz/Driver", swiftSettings: [.enableExperimentalFeature("Extern")]))
    for reader in fuzzedReaders {
        package.targets.append(
            .executableTarget(
                name: "fuzz-\(reader)", dependencies: ["ReaderFuzzing", "FuzzDriver"], path: "Fuzz/Targets/\(reader)"))
        package.products.append(.executable(name: "fuzz-\(reader)", targets: ["fuzz-\(reader)"]))
    }
}
