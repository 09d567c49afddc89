import Foundation

/// How an exercise's program is built: with the compiler and the flags SwiftPM used for the
/// catalog (read from SwiftPM's build description, `.build/<configuration>.yaml`), linked with
/// the catalog's shared library, `libExerciseCatalog`.
///
/// Reading SwiftPM's own description, rather than guessing paths, is what keeps the learner's
/// program consistent with the modules it imports: the same compiler, target and module maps.
public struct ExerciseToolchain: Sendable {
    /// The folder with the built products and their modules: `.build/x86_64-unknown-linux-gnu/debug`.
    public let productsDirectory: URL
    /// SwiftPM's scratch folder (`.build`).
    public let scratchDirectory: URL
    /// The build configuration the products were built in: `debug` or `release`.
    public let configuration: String
    /// The Swift compiler SwiftPM used.
    public let swiftc: String
    /// The flags that let a program import the package's modules: -I, -target, -swift-version,
    /// and the C module maps (GRDB's SQLite).
    public let moduleFlags: [String]

    /// The shared library every exercise's program links.
    public var runtimeLibrary: URL {
        #if os(macOS)
            productsDirectory.appendingPathComponent("libExerciseCatalog.dylib")
        #else
            productsDirectory.appendingPathComponent("libExerciseCatalog.so")
        #endif
    }

    /// The toolchain for the products in `productsDirectory` (the folder the running tool or test
    /// bundle was built into).
    public init(productsDirectory: URL) throws {
        let products = productsDirectory.resolvingSymlinksInPath()
        self.productsDirectory = products
        configuration = products.lastPathComponent
        // .build/<triple>/<configuration>: the description lies two folders up, beside <triple>.
        scratchDirectory = products.deletingLastPathComponent().deletingLastPathComponent()
        let description = scratchDirectory.appendingPathComponent("\(configuration).yaml")
        guard let text = try? String(contentsOf: description, encoding: .utf8) else {
            throw ExerciseRunnerError(
                "Can't build exercises: SwiftPM's build description \(description.path) is missing. Build the package first: `swift build`."
            )
        }
        guard let arguments = Self.catalogCompileArguments(in: text) else {
            throw ExerciseRunnerError(
                "Can't build exercises: \(description.path) has no command that compiles ExerciseCatalog. Build the package first: `swift build`."
            )
        }
        swiftc = arguments[0]
        moduleFlags = Self.moduleFlags(from: arguments)
    }

    /// The arguments of the command that compiles the ExerciseCatalog module, from a build
    /// description's `args: [...]` lines (each a JSON array).
    static func catalogCompileArguments(in description: String) -> [String]? {
        for line in description.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            // The compile command (it emits the module); the link command names the module too.
            guard trimmed.hasPrefix("args: ["), trimmed.contains(#""-module-name","ExerciseCatalog""#),
                trimmed.contains(#""-emit-module""#)
            else { continue }
            if let data = String(trimmed.dropFirst("args: ".count)).data(using: .utf8),
                let arguments = try? JSONDecoder().decode([String].self, from: data), !arguments.isEmpty
            {
                return arguments
            }
        }
        return nil
    }

    /// The flags of a compile command that concern finding modules, in their order.
    static func moduleFlags(from arguments: [String]) -> [String] {
        var flags: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            switch argument {
            case "-I", "-target", "-swift-version", "-sdk":
                if let next {
                    flags += [argument, next]
                    index += 1
                }
            case "-Xcc":
                // `-Xcc -I -Xcc PATH` (SwiftNIO's C modules, which chapter 10 links): the four go
                // together, or clang reads the next flag as the folder.
                if next == "-I", index + 3 < arguments.count, arguments[index + 2] == "-Xcc" {
                    flags += Array(arguments[index...(index + 3)])
                    index += 4
                    continue
                }
                if let next, next.hasPrefix("-fmodule-map-file=") || next.hasPrefix("-I") {
                    flags += [argument, next]
                    index += 1
                }
            default:
                if argument.hasPrefix("-I") && argument.count > 2 { flags.append(argument) }
            }
            index += 1
        }
        return flags
    }

    /// The modules the shared library is linked from that matter to an exercise: when one is
    /// newer than the library, the library is stale (a change to ObjectGraph or a check that
    /// `swift run workbook` compiled but did not link into it).
    func runtimeSourceModules() -> [URL] {
        let modules = productsDirectory.appendingPathComponent("Modules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: modules.path)) ?? []
        let chapters = names.filter { $0.hasSuffix("Chapter.swiftmodule") }
        return
            ([
                "ExerciseCatalog.swiftmodule", "CoreData.swiftmodule", "ObjectGraph.swiftmodule",
                "WorkbookSupport.swiftmodule", "ZarraToDo.swiftmodule",
            ] + chapters)
            .map { modules.appendingPathComponent($0) }
    }

    /// Why the shared library cannot be used as it is (missing, or older than a module it is
    /// built from), or nil when it is current.
    public func runtimeProblem() -> String? {
        guard let library = Self.modificationDate(runtimeLibrary) else {
            return "\(runtimeLibrary.lastPathComponent) has not been built"
        }
        for module in runtimeSourceModules() {
            if let date = Self.modificationDate(module), date > library {
                return
                    "\(runtimeLibrary.lastPathComponent) is older than \(module.deletingPathExtension().lastPathComponent)"
            }
        }
        return nil
    }

    /// Builds the shared library with SwiftPM when it is missing or stale. `swift run workbook`
    /// builds only the tool, so the first check after a change to the library lands here once.
    public func buildRuntimeIfNeeded(allowBuilding: Bool, log: (String) -> Void) throws {
        guard let problem = runtimeProblem() else { return }
        guard allowBuilding else {
            throw ExerciseRunnerError("Can't check exercises: \(problem). Build the package first: `swift build`.")
        }
        log("Building the exercises' library (\(problem)): swift build --product ExerciseCatalog")
        let swift = URL(fileURLWithPath: swiftc).deletingLastPathComponent().appendingPathComponent("swift").path
        let result = try ProcessRunner.run(
            executable: swift,
            arguments: [
                "build", "--product", "ExerciseCatalog", "--configuration", configuration, "--scratch-path",
                scratchDirectory.path,
            ],
            // The package whose build this is: the folder that holds .build.
            in: scratchDirectory.deletingLastPathComponent(), timeLimit: 1_800)
        guard result.status == .exited(0) else {
            throw ExerciseRunnerError(
                "Can't check exercises: building the exercises' library failed:\n\(result.output)")
        }
    }

    static func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}

/// Why the exercises cannot be built or run at all (as opposed to a verdict on one exercise).
public struct ExerciseRunnerError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String
    /// An error with this message.
    public init(_ description: String) { self.description = description }
}
