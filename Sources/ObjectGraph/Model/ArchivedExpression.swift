import Foundation

/// NSExpression as NSKeyedArchiver writes it, turned into an ``Expression``: what Xcode stores
/// for a mapping model's value and source expressions (in `xcmapping.xml` and in a `.cdm`).
///
/// The layout, from an expression Xcode archived (`$source.author` in FreeCoreData's
/// `Tests/MappingFixture.xcmappingmodel`) and Core Data's own coders: every expression has an
/// integer `NSExpressionType`; a constant (0) has `NSConstantValue`, a variable (2)
/// `NSVariable`, a key path (3) or key-path specifier (10) `NSKeyPath`; a function (4) has
/// `NSOperand`, `NSSelectorName` and `NSArguments`, and `$source.author` is the function
/// `valueForKeyPath:` on the variable `source` with one specifier argument `author` (class
/// NSKeyPathExpression); Core Data's private fetch expression (50, NSFetchRequestExpression) has
/// `NSFRExpression`, `NSMOCExpression` and `NSCountOnlyFlag` and prints as `FETCH(...)`.
enum ArchivedExpression {
    /// The expression archived in `data`.
    static func expression(from data: Data) throws -> Expression {
        let root: Any?
        do {
            root = try KeyedArchive.unarchivedValue(from: data, allowedClassNames: nil)
        } catch let failure as KeyedArchive.Failure {
            throw KeyedArchive.Failure("it is not a keyed archive of an NSExpression: \(failure.reason)")
        }
        return try expression(root)
    }

    /// The expression an unarchived object is; throws for anything but an NSExpression.
    static func expression(_ value: Any?) throws -> Expression {
        guard let object = value as? KeyedArchive.ArchivedObject else {
            let what = value.map { "a \(type(of: $0)) (\($0))" } ?? "nil"
            throw KeyedArchive.Failure("the archive holds \(what) where an NSExpression belongs")
        }
        guard object.classNames.contains("NSExpression"), let type = object.fields["NSExpressionType"] as? Int else {
            throw KeyedArchive.Failure(
                "the archive holds an object of class \(object.className) where an "
                    + "NSExpression belongs")
        }
        let fields = object.fields
        switch type {
        case 0:
            // A constant may be any property-list value; nil (absent) is the constant nil.
            let constant = fields["NSConstantValue"] ?? nil
            do { return try .constant(value: constant) } catch {
                throw KeyedArchive.Failure(
                    "an archived constant expression holds "
                        + "\(constant.map { "\($0)" } ?? "nil"), which is not a constant value")
            }
        case 1:
            return .evaluatedObject
        case 2:
            return .variable(try string(fields, "NSVariable", of: object))
        case 3, 10:
            return .keyPath(try string(fields, "NSKeyPath", of: object))
        case 4:
            return try function(fields, of: object)
        case 50:
            let request = try expression(fields["NSFRExpression"] ?? nil)
            let context = try expression(fields["NSMOCExpression"] ?? nil)
            let countOnly = fields["NSCountOnlyFlag"] as? Bool ?? false
            return .function("FETCH", [request, context, .constant(.bool(countOnly))])
        default:
            throw KeyedArchive.Failure(
                "the archive holds an \(object.className) of expression type \(type), which "
                    + "ObjectGraph does not read (it reads constants, SELF, variables, key paths, functions and FETCH)")
        }
    }

    /// A function expression: `$x.key` for `valueForKeyPath:` with one key path, a built-in
    /// function for one on a constant (Foundation's built-ins, `sum:` or `now`, have no
    /// receiver of their own), `FUNCTION(receiver, "selector", ...)` otherwise.
    private static func function(_ fields: [String: Any?], of object: KeyedArchive.ArchivedObject) throws -> Expression
    {
        let selector = try string(fields, "NSSelectorName", of: object)
        let arguments = try (fields["NSArguments"] as? [Any] ?? []).map { try expression($0 is NSNull ? nil : $0) }
        let operand = try (fields["NSOperand"] ?? nil).map(expression)
        if selector == "valueForKeyPath:", arguments.count == 1, case .keyPath(let path) = arguments[0] {
            switch operand {
            case nil, .evaluatedObject?: return .keyPath(path)
            case let receiver?: return .member(receiver, path)
            }
        }
        switch operand {
        case nil, .constant?: return .function(selector, arguments)
        case let receiver?: return .customFunction(receiver: receiver, selector: selector, arguments: arguments)
        }
    }

    private static func string(_ fields: [String: Any?], _ key: String, of object: KeyedArchive.ArchivedObject) throws
        -> String
    {
        guard let text = fields[key] as? String else {
            throw KeyedArchive.Failure("an archived \(object.className) has no \(key) string")
        }
        return text
    }
}
