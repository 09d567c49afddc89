/// Something in a model file the loader read past: an element or setting ObjectGraph does not use.
///
/// The loader collects these (``XcodeModelLoader/warnings``) and never prints them.
public struct ModelFileWarning: Hashable, Sendable, CustomStringConvertible {
    /// The path of the file.
    public let file: String
    /// The line of the element the warning is about.
    public let line: Int
    /// What was skipped, and why.
    public let message: String

    /// Makes a warning.
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): warning: \(message)" }
}
