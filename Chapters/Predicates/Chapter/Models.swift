import ObjectGraph
import WorkbookSupport

/// The models of the predicates chapter.
public enum PredicatesModels {
    /// People with names, ages and birthdays; words for the string operators.
    public static func people() throws -> ManagedObjectModel {
        // ANCHOR: people-model
        try ManagedObjectModel {
            EntityDescription("Person") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("age", .integer16)
                AttributeDescription("birthday", .date)
            }
            EntityDescription("Word") {
                AttributeDescription("text", .string, optional: false)
            }
        }
        // ANCHOR_END: people-model
    }

    /// LaMarche's books, each with a numeric id.
    public static func bookshop() throws -> ManagedObjectModel {
        // ANCHOR: bookshop-model
        try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("id", .integer32, optional: false)
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("publisher", .string)
                AttributeDescription("salesRank", .integer32)
            }
        }
        // ANCHOR_END: bookshop-model
    }
}

/// The objects the sections start from.
enum PeopleData {
    static let people: [(name: String, age: Int, birthdayDaysAgo: Double)] = [
        ("Mary", 19, 6_980), ("Joe", 21, 7_700), ("Bob", 35, 12_800), ("bob", 20, 7_400),
        ("BOB", 52, 19_000), ("Böb", 44, 16_100), ("Bób", 17, 6_300), ("Anne", 63, 23_000),
    ]

    static let words = ["wet", "wait", "wt", "west", "what", "wit", "Wet", "swat", "want", "w?t"]

    /// A context on a fresh store holding the people and the words.
    static func context(_ bench: Workbench) throws -> ManagedObjectContext {
        let context = try bench.makeContext(model: PredicatesModels.people())
        for p in people {
            let person = try context.insertNewObject(forEntityName: "Person")
            try person.setValue(p.name, forKey: "name")
            try person.setValue(p.age, forKey: "age")
            try person.setValue(Workbench.date(days: -p.birthdayDaysAgo), forKey: "birthday")
        }
        for w in words {
            let word = try context.insertNewObject(forEntityName: "Word")
            try word.setValue(w, forKey: "text")
        }
        try context.save()
        return context
    }

    /// The values of one key of the objects a predicate fetches, in store order.
    static func matches(_ predicate: Predicate, entity: String = "Person", key: String = "name", in context: ManagedObjectContext) throws -> [String] {
        let request = FetchRequest(entityName: entity)
        request.predicate = predicate
        return try context.fetch(request).map { try $0.value(forKey: key) as? String ?? "?" }
    }

    static func line(_ predicate: Predicate, _ matches: [String]) -> String {
        let format = predicate.predicateFormat
        return format.padding(toLength: max(format.count, 34), withPad: " ", startingAt: 0) + "  → " + (matches.isEmpty ? "(none)" : matches.joined(separator: ", "))
    }
}
