/// Something in a model file worth a look: an element or setting ObjectGraph read past, or
/// what Xcode itself warns about in a model Core Data loads (a relationship without an
/// inverse, a fetch index Core Data ignores).
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
