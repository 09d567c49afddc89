import Foundation
import ObjectGraph

// Apple's binary formats in a transformable attribute's data: keyed archives (KeyedArchive,
// over ObjectGraph's own binary property list reader) through `KeyedArchive.unarchivedValue`
// and the transformers Core Data names. (Foundation's property list reader is fuzzed where
// ObjectGraph hands it outside bytes: the binary store and `.xccurrentversion`.)

extension FuzzedReaders {
    /// Keyed archives and the unarchiving transformers.
    static let keyedArchiveReader = FuzzedReader(
        name: "keyedarchive",
        summary:
            "keyed archives (binary property lists of NSKeyedArchiver): KeyedArchive.unarchivedValue(from:allowedClassNames:), the NSSecureUnarchiveFromData, NSKeyedUnarchiveFromData and NSUnarchiveFromData transformers"
    ) { data, _ in
        var read: Any??
        for allowed in [nil, KeyedArchive.secureCodingClassNames] as [Set<String>?] {
            do {
                let value = try KeyedArchive.unarchivedValue(from: data, allowedClassNames: allowed)
                if allowed == nil { read = .some(value) }
            } catch is KeyedArchive.Failure {
                // Refused with a reason: right.
            } catch {
                return "KeyedArchive threw \(type(of: error)) (\(error)), not a KeyedArchive.Failure"
            }
        }
        for name in [
            ValueTransformerName.secureUnarchiveFromDataTransformerName, .keyedUnarchiveFromDataTransformerName,
            .unarchiveFromDataTransformerName,
        ] {
            _ = ValueTransformer.valueTransformer(forName: name)?.transformedValue(data)
        }
        // What reads, writes again, and that archive reads.
        if let read, let value = read {
            do {
                let again = try KeyedArchive.archivedData(withRootValue: value, allowedClassNames: nil)
                _ = try KeyedArchive.unarchivedValue(from: again, allowedClassNames: nil)
            } catch {
                return "an archive reads as \(value), but archiving that again and reading it back fails: \(error)"
            }
        }
        return nil
    }
}
