import GRDB

// Every type converts to `Any` silently, so passing an `AttributeValue` where a function
// takes `Any?` would compile and then treat the enum itself as the value (never nil, never a
// string, a number or an ID). These overloads are more specific than the `Any?` functions they
// shadow, so such a call does not compile: read the value with `.any`, or use the case.

@available(
    *, deprecated,
    message: "AttributeValue passed as Any: an AttributeValue is not an optional: use .isNull, .any or the case"
)
func unwrapOptional(_ value: AttributeValue) -> Any? { fatalError() }

@available(*, deprecated, message: "AttributeValue passed as Any: pass .any, or convert with AttributeValue(_:)")
func describeArgument(_ value: AttributeValue) -> String { fatalError() }

extension ManagedObject {
    @available(*, deprecated, message: "AttributeValue passed as Any: pass .any")
    static func describe(_ value: AttributeValue) -> String { fatalError() }
}

extension ValueComparison {
    @available(*, deprecated, message: "AttributeValue passed as Any: use AttributeValue.same, or pass .any")
    static func equal(_ a: AttributeValue, _ b: AttributeValue, _ options: ComparisonPredicate.Options) -> Bool {
        fatalError()
    }
    @available(*, deprecated, message: "AttributeValue passed as Any: pass .any")
    static func normalize(_ value: AttributeValue) -> Any? { fatalError() }
}

extension Number {
    @available(*, deprecated, message: "AttributeValue passed as Any: switch on the case, or pass .any")
    init?(_ value: AttributeValue) { fatalError() }
}

extension RelationalValues {
    @available(*, deprecated, message: "AttributeValue passed as Any: pass .any")
    static func databaseValue(_ value: AttributeValue, type: AttributeType) -> DatabaseValue { fatalError() }
    @available(*, deprecated, message: "AttributeValue passed as Any: pass .any")
    static func unstorableReason(_ value: AttributeValue, type: AttributeType) -> String? { fatalError() }
    @available(*, deprecated, message: "AttributeValue passed as Any: pass .any")
    static func genericDatabaseValue(_ value: AttributeValue) -> DatabaseValue { fatalError() }
}
