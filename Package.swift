// swift-tools-version:6.0
// The workbook: Core Data's fetching, predicates and migration, taught and implemented on Linux.
import PackageDescription

let package = Package(
    name: "CoreDataWorkbook",
    platforms: [.macOS(.v13)],
    products: [
        // The persistence module a Swift developer on Linux can depend on.
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "ObjectGraph",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/ObjectGraph"
        ),
        .executableTarget(
            name: "bench",
            dependencies: ["ObjectGraph"],
            path: "Benchmarks/bench"
        ),
        // Saves in a loop until killed; the crash-safety test runs it.
        .executableTarget(
            name: "objectgraph-crash-child",
            dependencies: ["ObjectGraph"],
            path: "Tests/CrashChild"
        ),
        .testTarget(
            name: "ObjectGraphTests",
            dependencies: ["ObjectGraph", "objectgraph-crash-child", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/ObjectGraphTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
