import Foundation

@testable import ObjectGraph

/// The keyed archives the mapping-model tests need, written with ObjectGraph's own
/// ``KeyedArchive`` writer: NSExpression objects laid out with Foundation's classes and keys
/// (ArchivedExpression's documentation), the user info of the fixture, and whole compiled
/// mapping models (`.cdm`). Fixtures/Mapping/ToDo1To2.xcmappingmodel holds the bytes of
/// ``fixtureArchives``; a test regenerates them and compares.
enum XcodeMappingArchives {
    typealias Object = KeyedArchive.ArchivedObject

    /// `$name`.
    static func variable(_ name: String) -> Object {
        Object(
            classNames: ["NSVariableExpression", "NSExpression", "NSObject"],
            fields: ["NSExpressionType": 2, "NSVariable": name])
    }

    /// A constant expression.
    static func constant(_ value: Any?) -> Object {
        Object(
            classNames: ["NSConstantValueExpression", "NSExpression", "NSObject"],
            fields: ["NSExpressionType": 0, "NSConstantValue": value])
    }

    /// `$variable.path`, as Xcode archives it: `valueForKeyPath:` on the variable with one
    /// key-path specifier.
    static func keyPath(_ path: String, of variable: String) -> Object {
        let specifier = Object(
            classNames: ["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"],
            fields: ["NSExpressionType": 10, "NSKeyPath": path])
        return Object(
            classNames: ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"],
            fields: [
                "NSExpressionType": 4, "NSOperand": Self.variable(variable), "NSSelectorName": "valueForKeyPath:",
                "NSArguments": [specifier] as [Any],
            ])
    }

    /// `FUNCTION(receiver, "selector", arguments...)`.
    static func function(_ receiver: Object, _ selector: String, _ arguments: [Object]) -> Object {
        Object(
            classNames: ["NSFunctionExpression", "NSExpression", "NSObject"],
            fields: [
                "NSExpressionType": 4, "NSOperand": receiver, "NSSelectorName": selector,
                "NSArguments": arguments as [Any],
            ])
    }

    /// Xcode's source expression: FETCH of the entity's request from `$manager.sourceContext`.
    static func fetch(_ entity: String, predicate: String = "TRUEPREDICATE") -> Object {
        let request = function(
            variable("manager"), "fetchRequestForSourceEntityNamed:predicateString:",
            [constant(entity), constant(predicate)])
        return Object(
            classNames: ["NSFetchRequestExpression", "NSExpression", "NSObject"],
            fields: [
                "NSExpressionType": 50, "NSFRExpression": request,
                "NSMOCExpression": keyPath("sourceContext", of: "manager"),
                "NSCountOnlyFlag": false,
            ])
    }

    /// An archive of `value`.
    static func data(_ value: Any) throws -> Data {
        try KeyedArchive.archivedData(withRootValue: value, allowedClassNames: nil)
    }

    /// The archives in the fixture, by the placeholder they were written for: the ToDo
    /// mapping's user info and three written value expressions.
    static func fixtureArchives() throws -> [String: Data] {
        [
            "USERINFO": try data(["article": "Core Data Versioning"]),
            "TITLE": try data(keyPath("title", of: "source")),
            "LASTALERTDATE": try data(keyPath("dueDate", of: "source")),
            "DONOTALERT": try data(
                function(variable("entityPolicy"), "doNotAlertForTitle:", [keyPath("title", of: "source")])),
        ]
    }

    /// A compiled mapping model (`.cdm`) with these entity mappings, written as Core Data's
    /// coders write NSMappingModel, NSEntityMapping and NSPropertyMapping.
    static func compiled(_ mappings: [EntityMapping], archive expression: (ObjectGraph.Expression) -> Object) throws
        -> Data
    {
        func properties(_ list: [PropertyMapping]) -> [Any] {
            list.map { p in
                Object(
                    classNames: ["NSPropertyMapping", "NSObject"],
                    fields: [
                        "NSDestinationPropertyName": p.name, "NSValueExpression": p.valueExpression.map(expression),
                        "NSUserInfo": p.userInfo.isEmpty ? nil : p.userInfo,
                    ])
            }
        }
        let objects: [Any] = mappings.map { m in
            Object(
                classNames: ["NSEntityMapping", "NSObject"],
                fields: [
                    "NSMappingName": m.name, "NSMappingType": m.mappingType.rawValue,
                    "NSSourceEntityName": m.sourceEntityName, "NSSourceEntityVersionHash": m.sourceEntityVersionHash,
                    "NSDestinationEntityName": m.destinationEntityName,
                    "NSDestinationEntityVersionHash": m.destinationEntityVersionHash,
                    "NSSourceExpression": m.sourceExpression.map(expression),
                    "NSUserInfo": m.userInfo.isEmpty ? nil : m.userInfo,
                    "NSEntityMigrationPolicyClassName": m.entityMigrationPolicyClassName,
                    "NSAttributeMappings": properties(m.attributeMappings),
                    "NSRelationshipMappings": properties(m.relationshipMappings),
                ])
        }
        return try data(Object(classNames: ["NSMappingModel", "NSObject"], fields: ["NSEntityMappings": objects]))
    }

    /// The archive of the expressions the ToDo mapping model holds (the inverse of the reader,
    /// for the shapes Xcode writes).
    static func archive(_ e: ObjectGraph.Expression) -> Object {
        switch e {
        case .constant(let c): return constant(constantValue(c))
        case .variable(let name): return variable(name)
        case .member(.variable(let name), let path): return keyPath(path, of: name)
        case .customFunction(let receiver, let selector, let arguments):
            return function(archive(receiver), selector, arguments.map(archive))
        case .function("FETCH", let a) where a.count == 3:
            return Object(
                classNames: ["NSFetchRequestExpression", "NSExpression", "NSObject"],
                fields: [
                    "NSExpressionType": 50, "NSFRExpression": archive(a[0]), "NSMOCExpression": archive(a[1]),
                    "NSCountOnlyFlag": false,
                ])
        default: return constant("unsupported: \(e)")
        }
    }

    private static func constantValue(_ c: ConstantValue) -> Any? {
        switch c {
        case .string(let s): return s
        case .int(let i): return i
        case .bool(let b): return b
        case .double(let d): return d
        default: return nil
        }
    }
}
