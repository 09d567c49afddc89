import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// The SQL the translator writes for representative predicates, and what it refuses.
@Suite struct SQLTranslationTests {
    let model: ManagedObjectModel
    let schema: RelationalSchema

    init() throws {
        model = try sqlTestModel()
        schema = RelationalSchema(model: model)
    }

    func translator(_ entity: String = "Book") -> SQLFetchTranslator {
        var t = SQLFetchTranslator(model: model, schema: schema, entity: model.entitiesByName[entity]!)
        t.storeIdentifier = SQLFixture.storeIdentifier
        return t
    }

    func sql(_ format: String, _ arguments: Any?..., entity: String = "Book") throws -> (
        sql: String, arguments: [DatabaseValue], joins: [String]
    ) {
        var t = translator(entity)
        let fragment = try t.condition(for: try ObjectGraph.Predicate(checkedFormat: format, argumentArray: arguments))
        return (fragment.sql, fragment.arguments, t.joins)
    }

    func refusal(_ format: String, _ arguments: Any?..., entity: String = "Book") throws -> String {
        var t = translator(entity)
        let predicate = try ObjectGraph.Predicate(checkedFormat: format, argumentArray: arguments)
        do {
            let fragment = try t.condition(for: predicate)
            Issue.record("\(format) translated to \(fragment.sql)")
            return ""
        } catch let error as CoreDataError {
            #expect(error.exceptionName == .invalidArgument)
            return error.message
        }
    }

    func id(_ entity: String, _ pk: Int64, store: String = SQLFixture.storeIdentifier) -> ManagedObjectID {
        ManagedObjectID(entityName: entity, storeIdentifier: store, primaryKey: pk)
    }

    // Apple, Predicate Programming Guide, "Using Null Values": nothing matches null but null,
    // so `x != 5` holds for a nil x; reference/predicates.md 7: `x == nil` is IS NULL and
    // `!=` must not lose NULL rows. Values are bound, never spliced.
    @Test func equalityUsesIsAndBoundValues() throws {
        #expect(try sql("title == %@", "x' OR 1=1 --") == ("t0.ZTITLE IS ?", ["x' OR 1=1 --".databaseValue], []))
        #expect(try sql("salesRank != 5") == ("t0.ZSALESRANK IS NOT ?", [5.databaseValue], []))
        #expect(try sql("title == nil").sql == "t0.ZTITLE IS NULL")
        #expect(try sql("title != nil").sql == "t0.ZTITLE IS NOT NULL")
        #expect(try sql("title ==[c] %@", "ÀB").sql == "OG_FOLD(t0.ZTITLE, 1) IS ?")
        #expect(
            try sql("title ==[c] %@", "ÀB").arguments == [StringComparison.fold("ÀB", .caseInsensitive).databaseValue])
        // [n]: the strings are compared as they are.
        #expect(try sql("title ==[cn] 'x'").sql == "t0.ZTITLE IS ?")
        #expect(try sql("title == isbn").sql == "t0.ZTITLE IS t0.ZISBN")
    }

    // Apple, Predicate Programming Guide, "Using Null Values"; reference/predicates.md 2.4:
    // ordering with nil is false, but nil <= nil and nil >= nil hold.
    @Test func orderingIsTwoValued() throws {
        #expect(try sql("salesRank < 3").sql == "(t0.ZSALESRANK < ? AND t0.ZSALESRANK IS NOT NULL)")
        #expect(try sql("3 < salesRank").sql == "(t0.ZSALESRANK > ? AND t0.ZSALESRANK IS NOT NULL)")
        #expect(try sql("salesRank < nil").sql == "0")
        #expect(try sql("salesRank <= nil").sql == "t0.ZSALESRANK IS NULL")
        #expect(
            try sql("salesRank >= pages").sql
                == "ifnull(t0.ZSALESRANK >= t0.ZPAGES, t0.ZSALESRANK IS NULL AND t0.ZPAGES IS NULL)")
        #expect(try sql("published > %@", Date(timeIntervalSinceReferenceDate: 10)).arguments == [(10.0).databaseValue])
    }

    // reference/predicates.md 2.3, 2.4, 2.13: no coercion between strings and numbers; `==`
    // is false, `!=` true, ordering an error, decided when translating.
    @Test func mixedTypesAreDecidedWhenTranslating() throws {
        #expect(try sql("salesRank == '5'").sql == "0")
        #expect(try sql("salesRank != '5'").sql == "1")
        #expect(try sql("title == 5").sql == "0")
        #expect(try sql("title == salesRank").sql == "(t0.ZTITLE IS NULL AND t0.ZSALESRANK IS NULL)")
        #expect(throws: ObjectGraph.PredicateError.self) { _ = try sql("salesRank < '5'") }
        #expect(throws: ObjectGraph.PredicateError.self) { _ = try sql("title BEGINSWITH 5") }
        #expect(throws: ObjectGraph.PredicateError.self) { _ = try sql("code < %@", UUID()) }
    }

    // Apple, Predicate Programming Guide, "String Comparisons": case- and diacritic-sensitive
    // by default; reference/predicates.md 2.6: an empty prefix matches nothing; 7: plain SQL
    // for the sensitive forms.
    @Test func substringOperators() throws {
        // Bytes of a BLOB, not characters of TEXT: substr() of TEXT stops at a NUL.
        #expect(
            try sql("title BEGINSWITH 'ab'") == (
                "substr(CAST(t0.ZTITLE AS BLOB), 1, ?) IS CAST(? AS BLOB)", [2.databaseValue, "ab".databaseValue], []
            ))
        #expect(
            try sql("title ENDSWITH 'bc'") == (
                "substr(CAST(t0.ZTITLE AS BLOB), ?) IS CAST(? AS BLOB)", [(-2).databaseValue, "bc".databaseValue], []
            ))
        #expect(
            try sql("title BEGINSWITH[cd] 'Á'") == (
                "substr(CAST(OG_FOLD(t0.ZTITLE, 3) AS BLOB), 1, ?) IS CAST(? AS BLOB)",
                [1.databaseValue, "a".databaseValue], []
            ))
        #expect(try sql("title ENDSWITH 'é'").arguments == [(-2).databaseValue, "é".databaseValue])
        #expect(
            try sql("title BEGINSWITH %@", "a\0") == (
                "substr(CAST(t0.ZTITLE AS BLOB), 1, ?) IS CAST(CAST(? AS TEXT) AS BLOB)",
                [2.databaseValue, Data("a\0".utf8).databaseValue], []
            ))
        #expect(try sql("title CONTAINS 'é'") == ("ifnull(instr(t0.ZTITLE, ?), 0) > 0", ["é".databaseValue], []))
        #expect(try sql("title BEGINSWITH ''").sql == "0")
        #expect(try sql("title CONTAINS nil").sql == "0")
        #expect(try sql("title BEGINSWITH isbn").sql == "OG_BEGINSWITH(t0.ZTITLE, t0.ZISBN, 0)")
        #expect(try sql("'hello' CONTAINS[c] title").sql == "OG_CONTAINS(?, t0.ZTITLE, 1)")
    }

    // Apple, Predicate Programming Guide, "Comparisons": LIKE has `?` and `*` wildcards;
    // reference/predicates.md 2.7 (escapes) and 7 (`%`, `_` must not become wildcards).
    @Test func likeBecomesGlob() throws {
        // GLOB reads text up to a NUL: text holding one goes through OG_LIKE.
        #expect(
            try sql("title LIKE 'a%b_c*'") == (
                "(CASE WHEN instr(t0.ZTITLE, char(0)) > 0 THEN OG_LIKE(t0.ZTITLE, ?, 0) ELSE (t0.ZTITLE GLOB ? AND t0.ZTITLE IS NOT NULL) END)",
                ["a%b_c*".databaseValue, "a%b_c*".databaseValue], []
            ))
        #expect(
            try sql("title LIKE %@", "[x]\\*\\??").arguments == [
                "[x]\\*\\??".databaseValue, "[[]x][*][?]?".databaseValue,
            ])
        #expect(
            try sql("title LIKE[c] 'A*'") == (
                "(CASE WHEN instr(t0.ZTITLE, char(0)) > 0 THEN OG_LIKE(t0.ZTITLE, ?, 1) ELSE ifnull(OG_FOLD(t0.ZTITLE, 1) GLOB ?, 0) END)",
                ["A*".databaseValue, "a*".databaseValue], []
            ))
        // A pattern with a NUL: only the registered function, the pattern bound whole.
        #expect(
            try sql("title LIKE %@", "a\0*") == (
                "OG_LIKE(t0.ZTITLE, CAST(? AS TEXT), 0)", [Data("a\0*".utf8).databaseValue], []
            ))
        #expect(try sql("title LIKE ''").sql == "0")
        #expect(throws: ObjectGraph.PredicateError.self) { _ = try sql("title LIKE %@", "abc\\") }
    }

    // Apple, Predicate Programming Guide, "Comparisons" (MATCHES, ICU regular expressions),
    // and reference/predicates.md 7: MATCHES runs through a registered function.
    @Test func matchesUsesTheRegisteredFunction() throws {
        #expect(try sql("title MATCHES[c] 'a.*'") == ("OG_MATCHES(t0.ZTITLE, ?, 1)", ["a.*".databaseValue], []))
        #expect(throws: ObjectGraph.PredicateError.self) { _ = try sql("title MATCHES '('") }
    }

    // Apple, Predicate Programming Guide, "Comparisons": IN and BETWEEN (inclusive bounds);
    // reference/predicates.md 2.9 (options ignored for collections) and 2.10 (swapped bounds).
    @Test func inAndBetween() throws {
        #expect(
            try sql("salesRank IN {1, 2, 'x', nil}") == (
                "(t0.ZSALESRANK IN (?, ?) AND t0.ZSALESRANK IS NOT NULL)", [1.databaseValue, 2.databaseValue], []
            ))
        #expect(
            try sql("title IN[c] {'A'}").sql
                == "(t0.ZSALESRANK = ? AND t0.ZSALESRANK IS NOT NULL)".replacingOccurrences(
                    of: "ZSALESRANK", with: "ZTITLE"))
        #expect(try sql("salesRank IN {}").sql == "0")
        #expect(try sql("title IN 'hello'").sql == "OG_CONTAINS(?, t0.ZTITLE, 0)")
        #expect(
            try sql("salesRank BETWEEN {5, 1}") == (
                "(t0.ZSALESRANK BETWEEN ? AND ? AND t0.ZSALESRANK IS NOT NULL)", [1.databaseValue, 5.databaseValue], []
            ))
        #expect(throws: ObjectGraph.PredicateError.self) { _ = try sql("salesRank BETWEEN {1}") }
    }

    // Apple, Core Data Programming Guide, "Fetching Managed Objects" (`self == %@`, IN with
    // managed objects or IDs); coredata.md 2.6. IDs of other stores and temporary IDs match
    // nothing; the entity is checked where the table holds several.
    @Test func objectIdentity() throws {
        #expect(
            try sql("self == %@", id("Book", 3)) == (
                "(t0.Z_PK = ? AND t0.Z_ENT = ?)",
                [3.databaseValue, model.entitiesByName["Book"]!.entityNumber.databaseValue], []
            ))
        #expect(
            try sql("self IN %@", [id("Author", 3), id("Author", 5), "x"], entity: "Author").sql == "t0.Z_PK IN (?, ?)")
        #expect(try sql("self == %@", id("Author", 3, store: "OTHER"), entity: "Author").sql == "0")
        #expect(try sql("self == %@", ManagedObjectID(temporaryFor: "Author", number: 1), entity: "Author").sql == "0")
        #expect(try sql("self == %@", id("Publisher", 3)).sql == "0")
        #expect(try sql("publisher == %@", id("Publisher", 2)).sql == "ifnull(t0.ZPUBLISHER = ?, 0)")
        #expect(try sql("publisher == nil").sql == "t0.ZPUBLISHER IS NULL")
        #expect(
            try sql("%@ IN authors", id("Author", 4)).sql
                == "EXISTS (SELECT 1 FROM Z_1BOOKS t1 JOIN ZAUTHOR t2 ON t2.Z_PK = t1.Z_1AUTHORS WHERE t1.Z_2BOOKS = t0.Z_PK AND (t2.Z_PK = ?))"
        )
    }

    // Apple, Predicate Programming Guide, "Using Predicates with Key-Paths": key paths across
    // relationships; Core Data joins to-one relationships (LEFT OUTER JOIN, so nil stays nil).
    @Test func toOneKeyPathsJoinOnce() throws {
        let r = try sql("publisher.name == 'x' OR publisher.rank > 2")
        #expect(r.joins == ["LEFT OUTER JOIN ZPUBLISHER t1 ON t1.Z_PK = t0.ZPUBLISHER"])
        #expect(r.sql == "((t1.ZNAME IS ?) OR ((t1.ZRANK > ? AND t1.ZRANK IS NOT NULL)))")
        // A sub-entity's attribute lives in the same table (Core Data Programming Guide,
        // entity inheritance): rows of other entities hold NULL there.
        #expect(try sql("genre == 'x'").sql == "t0.ZGENRE IS ?")
    }

    // Apple, Predicate Programming Guide, "Using Predicates with Relationships" (ANY, ALL,
    // NONE) and "Aggregate Operations" (@count); reference/predicates.md 2.11 (an empty
    // collection: ANY false, ALL true).
    @Test func toManyBecomesCorrelatedSubqueries() throws {
        #expect(
            try sql("ANY authors.name == 'x'").sql
                == "EXISTS (SELECT 1 FROM Z_1BOOKS t1 JOIN ZAUTHOR t2 ON t2.Z_PK = t1.Z_1AUTHORS WHERE t1.Z_2BOOKS = t0.Z_PK AND (t2.ZNAME IS ?))"
        )
        #expect(
            try sql("ALL books.price > 1", entity: "Publisher").sql
                == "NOT EXISTS (SELECT 1 FROM ZBOOK t1 WHERE t1.ZPUBLISHER = t0.Z_PK AND (NOT ((t1.ZPRICE > ? AND t1.ZPRICE IS NOT NULL))))"
        )
        #expect(
            try sql("NONE books.title == 'x'", entity: "Publisher").sql
                == "NOT (EXISTS (SELECT 1 FROM ZBOOK t1 WHERE t1.ZPUBLISHER = t0.Z_PK AND (t1.ZTITLE IS ?)))")
        #expect(
            try sql("books.@count > 2", entity: "Publisher").sql
                == "(SELECT COUNT(*) FROM ZBOOK t1 WHERE t1.ZPUBLISHER = t0.Z_PK) > ?")
        #expect(
            try sql("authors.@count == 0").sql == "(SELECT COUNT(*) FROM Z_1BOOKS t1 WHERE t1.Z_2BOOKS = t0.Z_PK) IS ?")
        #expect(
            try sql("books.@sum.price > 2", entity: "Publisher").sql
                == "ifnull((SELECT (CASE WHEN COUNT(t1.ZPRICE) = 0 THEN 0 ELSE OG_FSUM(t1.ZPRICE) END) FROM ZBOOK t1 WHERE t1.ZPUBLISHER = t0.Z_PK) > ?, 0)"
        )
        // Integers: exact, promoted to a REAL past 64 bits (IntegerSum).
        #expect(
            try sql("books.@sum.salesRank > 2", entity: "Publisher").sql.contains(
                "(SUM(t1.ZSALESRANK >> 32) + (SUM(t1.ZSALESRANK & 4294967295) >> 32))"))
        // Joins needed inside the subquery stay inside it.
        let r = try sql("ANY books.publisher.name == 'x'", entity: "Author")
        #expect(r.joins.isEmpty)
        #expect(
            r.sql.contains(
                "JOIN ZBOOK t2 ON t2.Z_PK = t1.Z_2BOOKS LEFT OUTER JOIN ZPUBLISHER t3 ON t3.Z_PK = t2.ZPUBLISHER WHERE")
        )
    }

    // Apple, NSExpression reference (SUBQUERY) and the objc.io Core Data SQL it produces:
    // `(SELECT COUNT(...) FROM ... WHERE (t0.Z_PK = t1.Z... AND (...)))`.
    @Test func subqueryCount() throws {
        let r = try sql("SUBQUERY(books, $b, $b.price > 1 AND title BEGINSWITH 'a').@count > 0", entity: "Publisher")
        #expect(
            r.sql
                == "(SELECT COUNT(*) FROM ZBOOK t1 WHERE t1.ZPUBLISHER = t0.Z_PK AND ((((t1.ZPRICE > ? AND t1.ZPRICE IS NOT NULL)) AND (substr(CAST(t1.ZTITLE AS BLOB), 1, ?) IS CAST(? AS BLOB))))) > ?"
        )
        #expect(r.arguments == [1.databaseValue, 1.databaseValue, "a".databaseValue, 0.databaseValue])
    }

    // Apple, NSCompoundPredicate reference: AND of nothing is true, OR of nothing false;
    // constant comparisons need no row.
    @Test func compoundsAndConstants() throws {
        var t = translator()
        #expect(try t.condition(for: .and([])).sql == "1")
        #expect(try t.condition(for: .or([])).sql == "0")
        #expect(try t.condition(for: .not(.truePredicate)).sql == "NOT (1)")
        #expect(try sql("1 == 1").sql == "1")
        #expect(try sql("'a' BEGINSWITH 'b'").sql == "0")
    }

    // reference/coredata.md 3.2 and 3.3: what the SQLite store refuses, in Core Data's words.
    @Test func refusalsUseCoreDataWords() throws {
        var t = translator()
        do {
            _ = try t.condition(for: ObjectGraph.Predicate(block: { _, _ in true }))
            Issue.record("a block predicate was translated")
        } catch let error as CoreDataError {
            #expect(error.exceptionName == .invalidArgument)
            #expect(error.message.hasPrefix("Unknown predicate type for predicate: BLOCKPREDICATE("))
        }
        #expect(try refusal("nope == 1") == "keypath nope not found in entity Book")
        #expect(try refusal("scratch == 'x'") == "keypath scratch not found in entity Book")
        #expect(try refusal("publisher.nope == 1") == "keypath publisher.nope not found in entity Book")
        #expect(try refusal("title.length > 1") == "keypath title.length not found in entity Book")
        #expect(try refusal("authors.name == 'x'") == "to-many key not allowed here")
        #expect(try refusal("ANY authors.books.title == 'x'") == "to-many key not allowed here")
        #expect(try refusal("ANY title == 'x'") == "unimplemented SQL generation for predicate : (ANY title == \"x\")")
        #expect(try refusal("title == $name") == "unimplemented SQL generation for predicate : (title == $name)")
        #expect(
            try refusal("FUNCTION(title, 'uppercaseString') == 'X'").hasPrefix(
                "Unsupported function expression FUNCTION("))
        #expect(try refusal("salesRank + 1 > 2") == "Unsupported function expression salesRank + 1")
        #expect(
            try refusal("salesRank BETWEEN {pages, 3}").hasPrefix(
                "unimplemented SQL generation for predicate : (salesRank BETWEEN"))
    }

    // Apple, "Core Data Programming Guide", "Persistent Store Types and Behaviors": the SQLite
    // store sorts with compare:, caseInsensitiveCompare: and the localized comparisons; nil
    // first ascending (SortDescriptor).
    @Test func orderingTerms() throws {
        var t = translator()
        let terms = try t.orderingTerms(for: [
            ObjectGraph.SortDescriptor(key: "title"),
            ObjectGraph.SortDescriptor(key: "isbn", ascending: false, comparator: .caseInsensitiveCompare),
            ObjectGraph.SortDescriptor(key: "publisher.name", comparator: .localizedStandardCompare),
            ObjectGraph.SortDescriptor(key: "salesRank", ascending: false, comparator: .localizedCompare),
        ])
        #expect(
            terms == [
                "t0.ZTITLE", "OG_FOLD(t0.ZISBN, 1) DESC", "t1.ZNAME COLLATE OG_LOCALIZED_STANDARD",
                "t0.ZSALESRANK DESC",
            ])
        #expect(t.joins == ["LEFT OUTER JOIN ZPUBLISHER t1 ON t1.Z_PK = t0.ZPUBLISHER"])
        #expect(throws: CoreDataError.self) { _ = try t.orderingTerms(for: [ObjectGraph.SortDescriptor(key: "nope")]) }
        #expect(throws: CoreDataError.self) {
            _ = try t.orderingTerms(for: [ObjectGraph.SortDescriptor(key: "authors.name")])
        }
        #expect(throws: CoreDataError.self) { _ = try t.orderingTerms(for: [ObjectGraph.SortDescriptor(key: "code")]) }
    }

    // Apple, NSExpressionDescription and NSExpression reference ("Core Data doesn't support
    // aggregate expressions" beyond the statistics functions): count:, sum:, min:, max:,
    // average: over key paths, for dictionary fetches.
    @Test func columnsAndAggregates() throws {
        var t = translator()
        #expect(try t.column(forKeyPath: "publisher.name").sql == "t1.ZNAME")
        #expect(try t.resolvedColumn(forKeyPath: "price").attributeType == .double)
        let max = try t.aggregate(for: try ObjectGraph.Expression(checkedFormat: "max:(salesRank)"))
        #expect(max.fragment.sql == "MAX(t0.ZSALESRANK)" && max.resultType == .integer32)
        let count = try t.aggregate(for: try ObjectGraph.Expression(checkedFormat: "count:(title)"))
        #expect(count.fragment.sql == "COUNT(t0.ZTITLE)" && count.resultType == .integer64)
        #expect(
            try t.aggregate(for: try ObjectGraph.Expression(checkedFormat: "sum:(salesRank)")).resultType == .integer64)
        #expect(
            try t.aggregate(for: try ObjectGraph.Expression(checkedFormat: "average:(price)")).fragment.sql
                == "AVG(t0.ZPRICE)")
        #expect(
            try t.aggregate(for: try ObjectGraph.Expression(checkedFormat: "min:(publisher.founded)")).fragment.sql
                == "MIN(t1.ZFOUNDED)")
        #expect(throws: CoreDataError.self) {
            _ = try t.aggregate(for: try ObjectGraph.Expression(checkedFormat: "median:(price)"))
        }
        #expect(throws: CoreDataError.self) {
            _ = try t.aggregate(for: try ObjectGraph.Expression(checkedFormat: "sum:(title)"))
        }
    }
}
