import Foundation

/// `ZCOLUMNS`, the bitmap of an update's changed properties in `ACHANGE`, as Core Data
/// writes it: every store that records history writes it, and the reader decodes it.
extension RelationalHistorySchema {
    /// The properties of an entity in the order `ZCOLUMNS` numbers them: its attributes and
    /// relationships, own and inherited, by name.
    static func bitmapOrder(of entity: EntityDescription) -> [PropertyDescription] {
        (entity.attributes.map(PropertyDescription.attribute)
            + entity.relationships.map(PropertyDescription.relationship)).sorted { $0.name < $1.name }
    }

    /// `ZCOLUMNS` for changed properties: bit n (byte n / 8, value 1 << n % 8) for the n-th
    /// property of ``bitmapOrder(of:)``.
    static func propertyBitmap(_ names: [String], of entity: EntityDescription) -> Data {
        let order = bitmapOrder(of: entity)
        var bytes = [UInt8](repeating: 0, count: (order.count + 7) / 8)
        let wanted = Set(names)
        for (n, property) in order.enumerated() where wanted.contains(property.name) {
            bytes[n / 8] |= UInt8(1 << (n % 8))
        }
        return Data(bytes)
    }

    /// The properties a `ZCOLUMNS` bitmap names; bits past the entity's properties (a bitmap
    /// written by another model version) are ignored.
    static func properties(inBitmap data: Data, of entity: EntityDescription) -> Set<PropertyDescription> {
        let order = bitmapOrder(of: entity)
        var result: Set<PropertyDescription> = []
        for (i, byte) in data.enumerated() {
            for bit in 0..<8 where byte & UInt8(1 << bit) != 0 {
                let n = i * 8 + bit
                if n < order.count { result.insert(order[n]) }
            }
        }
        return result
    }
}
