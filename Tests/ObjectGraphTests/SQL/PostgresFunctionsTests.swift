import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// The functions the PostgreSQL store creates in its schema (PostgresFunctions) give the
/// answers of the code the evaluator uses, as SQLite's registered functions do.
@Suite struct PostgresFunctionsTests {
    /// Text for the string functions: every printable ASCII character, the fixture's strings
    /// (without NUL, which PostgreSQL's text cannot hold), and letters of other scripts with
    /// case, width, ligature and diacritic foldings.
    static let samples: [String] = {
        let ascii = (1..<128).map { String(UnicodeScalar(UInt8($0))) }
        return ascii + [ascii.joined(), "Hello World"] + SQLFixture.postgresStrings.compactMap { $0 } + [
            "ÅNGSTRÖM", "Ǆemal", "ΣΊΣΥΦΟΣ", "ﬀ ﬃ", "Ｈｅｌｌｏ", "ḱṷṓn", "x\u{301}\u{302}y", "\u{301}a", "İstanbul", "ǰ",
            "ŉ", "Ꭰ", "ꭰ", "𐐀𐐨", "ß", "ẞ",
        ]
    }()

    // Apple, Predicate Programming Guide, "String Comparisons": [c] and [d]; OG_FOLD in
    // PL/pgSQL must equal StringComparison.fold, from which its tables were made.
    @Test func foldAgreesWithTheEvaluator() throws {
        guard let database = try PostgresFixtureDatabase(schema: RelationalSchema(model: try sqlTestModel())) else {
            return
        }
        for options in SQLiteFunctionsTests.optionSets {
            for s in Self.samples {
                let result = try database.query("SELECT OG_FOLD(?, \(options.rawValue))", [s.databaseValue])
                #expect(
                    String.fromDatabaseValue(result[0, 0]) == StringComparison.fold(s, options),
                    "\(s.debugDescription) \(options)")
            }
        }
    }

    // BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES with options, on pairs of samples.
    @Test func stringOperatorsAgreeWithTheEvaluator() throws {
        guard let database = try PostgresFixtureDatabase(schema: RelationalSchema(model: try sqlTestModel())) else {
            return
        }
        let subjects = SQLFixture.postgresStrings.compactMap { $0 } + ["ÅNGSTRÖM", "straße", "Ｈｅｌｌｏ"]
        let patterns = [
            "a", "A", "abc", "ÁBC", "a*", "*c", "?b?", "x\\%y", "x_y", "", "st", "STRASSE", "h*o", "ss", "é", "\\*",
        ]
        let operators: [(String, (String, String, ComparisonPredicate.Options) throws -> Bool)] = [
            (SQLiteFunctions.beginsWith, StringComparison.beginsWith),
            (SQLiteFunctions.endsWith, StringComparison.endsWith),
            (SQLiteFunctions.contains, StringComparison.contains), (SQLiteFunctions.like, StringComparison.like),
        ]
        for options in SQLiteFunctionsTests.optionSets {
            for (name, evaluate) in operators {
                for s in subjects {
                    for p in patterns {
                        let result = try database.query(
                            "SELECT \(name)(?, ?, \(options.rawValue))", [s.databaseValue, p.databaseValue])
                        #expect(
                            (Int.fromDatabaseValue(result[0, 0]) == 1) == (try evaluate(s, p, options)),
                            "\(name) \(s.debugDescription) \(p.debugDescription) \(options)")
                    }
                }
            }
        }
        // MATCHES with the syntax ICU and PostgreSQL share. (Not \\w: ICU's includes combining
        // marks, PostgreSQL's does not; SQLEquivalenceTests.postgresExclusion.)
        for options in SQLiteFunctionsTests.optionSets {
            for s in subjects {
                for p in ["a.*", "[a-c]+", "A.C", "(ab|xy).*", "\\d+", ".*o", "h.llo", "x\\ny"] {
                    let result = try database.query(
                        "SELECT \(SQLiteFunctions.matches)(?, ?, \(options.rawValue))",
                        [s.databaseValue, p.databaseValue])
                    #expect(
                        (Int.fromDatabaseValue(result[0, 0]) == 1) == (try StringComparison.matches(s, p, options)),
                        "MATCHES \(s.debugDescription) \(p.debugDescription) \(options)")
                }
            }
        }
    }
}
