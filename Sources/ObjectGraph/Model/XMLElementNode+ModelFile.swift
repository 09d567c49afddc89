import Foundation

extension XMLElementNode {
    /// Reads an Xcode model or mapping file's XML; what is wrong throws an error naming the
    /// file, line and column.
    static func parse(_ data: Data, file: String) throws -> XMLElementNode {
        do {
            return try parse(data)
        } catch .refused(let refusal) {
            throw CoreDataError(
                .fileReadCorruptFile,
                "\(file):\(refusal.line): \(refusal.reason), which Xcode's model and mapping files never are or hold")
        } catch .malformed(let line, let column, let reason) {
            throw CoreDataError(
                .fileReadCorruptFile,
                "\(file):\(line):\(column): the model file is not well-formed XML (\(reason)). "
                    + "Fix the XML at that line, or open the model in Xcode and save it again.")
        } catch .empty {
            throw CoreDataError(
                .fileReadCorruptFile,
                "\(file):1: the model file has no XML element; it should hold a <model> element as Xcode writes it")
        }
    }
}
