import Foundation

/// How a transformable attribute's value becomes the data a store keeps, and back, through the
/// ``ValueTransformer`` its model names (``AttributeDescription/valueTransformerName``; none
/// means `NSSecureUnarchiveFromData`, as in Core Data).
///
/// Direction, as Core Data runs it: a transformer of the "unarchive from data" family
/// (``UnarchivingValueTransformer``) turns data into a value forwards, so it is run backwards
/// to save; any other transformer turns the value into data forwards (Apple: "The transformer
/// must output an NSData object from transformedValue(_:) and must allow reverse
/// transformations").
///
/// The transformer is looked up at each use, so one registered after the store was added is
/// found.
enum TransformableValues {
    /// Why a value or its data could not be transformed: the store completes the message with
    /// the object, key and store.
    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// The registered transformer for an attribute, or why there is none.
    static func transformer(for attribute: AttributeDescription) throws(Failure) -> ValueTransformer {
        let name = ValueTransformerName(
            attribute.valueTransformerName ?? ValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue)
        guard let transformer = ValueTransformer.valueTransformer(forName: name) else {
            throw Failure(
                reason:
                    "no ValueTransformer is registered under the name \(name.rawValue); register one with ValueTransformer.setValueTransformer(_:forName:) before reading or saving this attribute"
            )
        }
        return transformer
    }

    /// The data to store for a value (never nil: callers store NULL for nil themselves).
    static func data(for value: Any, attribute: AttributeDescription) throws(Failure) -> Data {
        let transformer = try transformer(for: attribute)
        if let unarchiving = transformer as? UnarchivingValueTransformer {
            do { return try unarchiving.archive(value) } catch {
                throw Failure(reason: "its value \(describeArgument(value)) could not be archived: \(error)")
            }
        }
        let result = transformer.transformedValue(value)
        guard let data = result as? Data else {
            throw Failure(
                reason:
                    "its transformer \(type(of: transformer)) turned \(describeArgument(value)) into \(result.map { "a \(type(of: $0))" } ?? "nil"), not the Data a store keeps"
            )
        }
        return data
    }

    /// The value stored as `data`.
    static func value(from data: Data, attribute: AttributeDescription) throws(Failure) -> Any? {
        let transformer = try transformer(for: attribute)
        if let unarchiving = transformer as? UnarchivingValueTransformer {
            do { return try unarchiving.unarchive(data) } catch {
                throw Failure(reason: "its \(data.count) bytes could not be unarchived: \(error)")
            }
        }
        guard type(of: transformer).allowsReverseTransformation(), let value = transformer.reverseTransformedValue(data)
        else {
            throw Failure(reason: "its transformer \(type(of: transformer)) gave no value for its \(data.count) bytes")
        }
        return value
    }
}
