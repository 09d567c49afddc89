import Foundation
import Testing

@testable import ObjectGraph

/// Builds the bytes of a hash as versionhash.md spells them, independently of the module's
/// encoder: strings as UTF-8, integers little-endian, sub-hashes raw.
private struct Bytes {
    var bytes: [UInt8] = []
    static func + (lhs: Bytes, rhs: String) -> Bytes { Bytes(bytes: lhs.bytes + Array(rhs.utf8)) }
    static func + (lhs: Bytes, rhs: [UInt8]) -> Bytes { Bytes(bytes: lhs.bytes + rhs) }
    static func + (lhs: Bytes, rhs: Data) -> Bytes { Bytes(bytes: lhs.bytes + Array(rhs)) }
    var sha256: [UInt8] { SHA256.digest(bytes) }
    var data: Data { Data(sha256) }
}

private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
private func hex(_ data: Data) -> String { hex(Array(data)) }
private func u16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
private func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> ($0 * 8)) & 0xff) } }

// FIPS 180-4's digests, checked against the published test vectors (NIST's examples).
@Suite struct DigestTests {
    @Test func sha512MatchesThePublishedTestVectors() {
        #expect(
            hex(SHA512.digest([]))
                == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        )
        #expect(
            hex(SHA512.digest(Array("abc".utf8)))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        )
        // 448 bits: padding still fits the first block's last 128 bits.
        #expect(
            hex(SHA512.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"
        )
        // 896 bits: the length needs a second block.
        let long =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(
            hex(SHA512.digest(Array(long.utf8)))
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
        )
    }

    @Test func sha256MatchesThePublishedTestVectors() {
        #expect(hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}

// versionhash.md, rule by rule, each with a small model whose hash is built by hand here.
@Suite struct VersionHashTests {
    @Test func theReferencesWorkedExample() throws {
        // jeffreybergier's BasicEntity: one optional String attribute.
        let p = VersionHash.propertyBase(
            name: "v1_2_0_name", isOptional: true, isTransient: false, versionHashModifier: nil)
        #expect(hex(p).hasPrefix("4b3aa784") && hex(p).hasSuffix("e692940a"))
        let model = try ManagedObjectModel {
            EntityDescription("BasicEntity") { AttributeDescription("v1_2_0_name", .string) }
        }
        let a = try #require(model.entitiesByName["BasicEntity"]?.attribute(named: "v1_2_0_name")).versionHash
        #expect(hex(a).hasPrefix("b09c8195") && hex(a).hasSuffix("11ef7790"))
        let e = try #require(model.entityVersionHashesByName["BasicEntity"])
        #expect(hex(e).hasPrefix("64641461f69e65a3") && hex(e).hasSuffix("bd95691df39845708a66e8bf"))
        #expect(e == (Bytes() + "BasicEntity" + [0] + a).data)
    }

    @Test func flagsAreOneOptionalTwoTransientAsALittleEndianUInt16() throws {
        for (optional, transient, flags) in [(false, false, 0), (true, false, 1), (false, true, 2), (true, true, 3)]
            as [(Bool, Bool, UInt16)]
        {
            let attribute = AttributeDescription("n", .integer32, optional: optional, transient: transient)
            let p = (Bytes() + "n" + u16(flags)).sha256
            #expect(
                attribute.versionHash == (Bytes() + p + u32(200)).data, "optional \(optional), transient \(transient)")
        }
        // The property's modifier follows the flags (unconfirmed placement, as the reference says).
        let modified = AttributeDescription("n", .integer32, versionHashModifier: "v2")
        #expect(modified.versionHash == (Bytes() + (Bytes() + "n" + u16(1) + "v2").sha256 + u32(200)).data)
    }

    @Test func integersAreLittleEndian() throws {
        // String is 700 = bc 02 00 00.
        #expect(u32(700) == [0xbc, 0x02, 0x00, 0x00])
        let string = AttributeDescription("s", .string)
        #expect(string.versionHash == (Bytes() + (Bytes() + "s" + [1, 0]).sha256 + [0xbc, 0x02, 0x00, 0x00]).data)
        // A to-many's maximum count of Int.max is truncated to 32 bits: ff ff ff ff.
        let model = try ManagedObjectModel {
            EntityDescription("A") {
                RelationshipDescription("bs", toMany: "B", inverse: "a", minCount: 2, maxCount: Int.max)
            }
            EntityDescription("B") { RelationshipDescription("a", toOne: "A", inverse: "bs") }
        }
        let bs = try #require(model.entitiesByName["A"]?.relationship(named: "bs"))
        let p = (Bytes() + "bs" + u16(1)).sha256
        #expect(bs.versionHash == (Bytes() + p + "B" + "a" + [0xff, 0xff, 0xff, 0xff] + u32(2)).data)
    }

    @Test func externalStorageAndHistoryAddOneByteEachOnlyWhenSet() {
        func hash(external: Bool, preserve: Bool) -> Data {
            AttributeDescription(
                "blob", .binaryData, allowsExternalBinaryDataStorage: external,
                preservesValueInHistoryOnDeletion: preserve
            ).versionHash
        }
        let base = Bytes() + (Bytes() + "blob" + u16(1)).sha256 + u32(1000)
        #expect(hash(external: false, preserve: false) == base.data)
        #expect(hash(external: true, preserve: false) == (base + [1]).data)
        #expect(hash(external: false, preserve: true) == (base + [1]).data)
        #expect(hash(external: true, preserve: true) == (base + [1, 1]).data)
    }

    @Test func theInverseNameIsHashedUnlessThereIsNoneOrTheRelationshipIsItsOwn() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Person") {
                RelationshipDescription("friends", toMany: "Person", inverse: "friends")
                RelationshipDescription("partner", toOne: "Couple", inverse: "partner")
                RelationshipDescription("watches", toMany: "Person", inverse: nil)
            }
            EntityDescription("Couple") { RelationshipDescription("partner", toMany: "Person", inverse: "partner") }
        }
        let person = try model.entity(named: "Person")
        func expected(_ name: String, toMany: Bool, destination: String, inverse: String?) -> Data {
            (Bytes() + (Bytes() + name + u16(1)).sha256 + destination + (inverse ?? "") + u32(toMany ? 0 : 1) + u32(0))
                .data
        }
        // Its own inverse (same name, same entity): the name is left out.
        #expect(
            person.relationship(named: "friends")?.versionHash
                == expected("friends", toMany: true, destination: "Person", inverse: nil))
        // An inverse of the same name on another entity is another relationship: hashed.
        #expect(
            person.relationship(named: "partner")?.versionHash
                == expected("partner", toMany: false, destination: "Couple", inverse: "partner"))
        // No inverse: nothing appended.
        #expect(
            person.relationship(named: "watches")?.versionHash
                == expected("watches", toMany: true, destination: "Person", inverse: nil))
        // A sub-entity inherits the self-inverse relationship with the same hash.
        let sub = try ManagedObjectModel {
            EntityDescription("Person") { RelationshipDescription("friends", toMany: "Person", inverse: "friends") }
            EntityDescription("Student", parent: "Person") {}
        }
        #expect(
            try sub.entity(named: "Student").relationship(named: "friends")?.versionHash
                == expected("friends", toMany: true, destination: "Person", inverse: nil))
    }

    @Test func anOrderedRelationshipAppendsATwoByteOne() throws {
        func model(ordered: Bool) throws -> ManagedObjectModel {
            try ManagedObjectModel {
                EntityDescription("Post") {
                    RelationshipDescription("authors", toMany: "Author", inverse: "posts", ordered: ordered)
                }
                EntityDescription("Author") { RelationshipDescription("posts", toMany: "Post", inverse: "authors") }
            }
        }
        let base = Bytes() + (Bytes() + "authors" + u16(1)).sha256 + "Author" + "posts" + u32(0) + u32(0)
        #expect(
            try model(ordered: false).entity(named: "Post").relationship(named: "authors")?.versionHash == base.data)
        #expect(
            try model(ordered: true).entity(named: "Post").relationship(named: "authors")?.versionHash
                == (base + [1, 0]).data)
    }

    @Test func aDerivedAttributeHashesItsExpressionOnly() throws {
        let count = AttributeDescription(
            "pagesCount", .integer64, derivationExpression: try Expression(checkedFormat: "pages.@count"))
        // The key path's @count becomes Core Data's function form first.
        #expect(count.versionHash == (Bytes() + "count:(pages)").data)
        // Name, type and optionality do not count.
        let other = AttributeDescription(
            "n", .integer32, optional: false, derivationExpression: try Expression(checkedFormat: "pages.@count"))
        #expect(other.versionHash == count.versionHash)
        let sum = AttributeDescription(
            "total", .double, derivationExpression: try Expression(checkedFormat: "items.@sum"))
        #expect(sum.versionHash == (Bytes() + "sum:(items)").data)
        let plain = AttributeDescription(
            "upper", .string, derivationExpression: try Expression(checkedFormat: "uppercase:(name)"))
        #expect(plain.versionHash == (Bytes() + "uppercase:(name)").data)
    }

    @Test func aCompositeHashesItsStoredElementsInNameOrder() {
        let street = AttributeDescription("street", .string)
        let city = AttributeDescription("city", .string)
        let scratch = AttributeDescription("scratch", .string, transient: true)
        let address = AttributeDescription("address", .composite, elements: [street, scratch, city])
        #expect(address.versionHash == (Bytes() + city.versionHash + street.versionHash).data)
    }

    @Test func anEntityChainsItsParentAndHashesEveryStoredPropertyInNameOrder() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Car", uniquenessConstraints: [["plate"], ["maker", "model"]]) {
                AttributeDescription("plate", .string, optional: false)
                AttributeDescription("model", .string)
                AttributeDescription("maker", .string)
                AttributeDescription("speed", .integer64, transient: true)
            }
            EntityDescription("SportCar", parent: "Car", abstract: true) {
                AttributeDescription("Zeta", .boolean)
                AttributeDescription("_boost", .boolean)
            }
        }
        let car = try model.entity(named: "Car")
        let sport = try model.entity(named: "SportCar")
        func a(_ entity: EntityDescription, _ name: String) throws -> Data {
            try #require(entity.attribute(named: name)).versionHash
        }
        // Name order is byte order ("Z" < "_" < "a"); the transient speed is left out; each
        // constraint enters as its names joined with ".", the texts sorted.
        let expectedCar =
            Bytes() + "Car" + [0] + (try a(car, "maker")) + (try a(car, "model")) + (try a(car, "plate"))
            + "maker.model" + "plate"
        #expect(car.versionHash == expectedCar.data)
        // A sub-entity: abstract flag, the parent's hash, then every property (inherited too);
        // the parent's constraints only through its hash.
        let expectedSport =
            Bytes() + "SportCar" + [1] + car.versionHash + (try a(sport, "Zeta")) + (try a(sport, "_boost"))
            + (try a(sport, "maker")) + (try a(sport, "model")) + (try a(sport, "plate"))
        #expect(sport.versionHash == expectedSport.data)
    }

    @Test func transientPropertiesAndFetchedPropertiesLeaveTheEntityHashAlone() throws {
        func model(extra: Bool) throws -> Data? {
            try ManagedObjectModel {
                EntityDescription(
                    "Note",
                    fetchedProperties: extra
                        ? [
                            FetchedPropertyDescription(
                                "recent", fetchRequest: FetchRequestTemplate(name: "r", entityName: "Note"))
                        ] : []
                ) {
                    AttributeDescription("text", .string)
                    if extra {
                        AttributeDescription("cache", .undefined, transient: true)
                        RelationshipDescription("scratch", toOne: "Note", inverse: nil, transient: true)
                    }
                }
            }.entityVersionHashesByName["Note"]
        }
        #expect(try model(extra: true) == model(extra: false))
    }

    @Test func theDigestAndChecksumCoverEveryEntityInNameOrder() throws {
        let model = try ManagedObjectModel {
            EntityDescription("b") { AttributeDescription("x", .string) }
            EntityDescription("B") { AttributeDescription("y", .string) }
            EntityDescription("A") {}
        }
        let hashes = model.entityVersionHashesByName
        let names = ["A", "B", "b"]
        let checksum = Data(SHA256.digest(names.flatMap { Array(hashes[$0]!) })).base64EncodedString()
        #expect(model.versionChecksum == checksum)
        let digest = Data(SHA512.digest(names.flatMap { Array($0.utf8) + Array(hashes[$0]!) })).base64EncodedString()
        #expect(model.storeMetadataVersionKeys["NSStoreModelVersionHashesDigest"] as? String == digest)
    }

    @Test func newStoresRecordCoreDatasMetadataKeys() throws {
        let directory = try TemporaryDirectory()
        let model = try ManagedObjectModel(versionIdentifier: "7") {
            EntityDescription("Item") { AttributeDescription("name", .string) }
        }
        for (type, name) in [(StoreType.sqlite, "Items.sqlite"), (.xml, "Items.xml"), (.binary, "Items.bin")] {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: type, at: directory.file(name))
            let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(
                type: type, at: directory.file(name))
            #expect(
                metadata["NSStoreModelVersionHashes"] as? [String: Data] == model.entityVersionHashesByName, "\(type)")
            #expect(metadata["NSStoreModelVersionHashesVersion"] as? Int == 3, "\(type)")
            #expect(metadata["NSStoreModelVersionChecksumKey"] as? String == model.versionChecksum, "\(type)")
            #expect(
                (metadata["NSStoreModelVersionHashesDigest"] as? String).flatMap { Data(base64Encoded: $0) }?.count
                    == 64, "\(type)")
            #expect(metadata["NSStoreModelVersionIdentifiers"] as? [String] == ["7"], "\(type)")
            #expect(metadata["NSPersistenceFrameworkVersion"] as? Int == 1344, "\(type)")
        }
    }
}
