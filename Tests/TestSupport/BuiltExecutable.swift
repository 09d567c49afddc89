import Foundation

/// The executables of this package that tests run as separate processes (crash children,
/// writer children, the `todo` program), found where `swift build --build-tests` puts them:
/// next to the test bundle, as swift-argument-parser's example tests find theirs.
public enum BuiltExecutable {
    /// The built executable named `name`, or nil when it has not been built.
    public static func url(named name: String) -> URL? {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }
}
