import ObjectGraph
import Testing
import WorkbookSupport

@testable import ExerciseCatalog

/// Zarra's rule instead of the exercise's: doNotAlert for titles beginning with "a".
final class TitleRulePolicy: DoNotAlertForAPolicy {}

/// Makes the to-do and sets doNotAlert, but never associates it with its source.
final class ForgetfulPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let todo = try manager.destinationContext.insertNewObject(forEntityName: "ToDo")
        for key in ["title", "dueDate", "completed"] {
            try todo.checkedSetValue(try source.checkedValue(forKey: key), forKey: key)
        }
        try todo.checkedSetValue(try source.checkedValue(forKey: "completed"), forKey: "doNotAlert")
    }
}

// The migration-policies checks explain the mistakes the chapter warns about, in the
// learner's words: each wrong attempt here is one a learner is likely to write.
@Suite struct MigrationPoliciesCheckTests {
    static func messages(_ verdict: Verdict) -> String {
        if case .failed(let messages) = verdict { return messages.joined(separator: "\n") }
        return "verdict \(verdict)"
    }

    @Test func zarrasRuleInsteadOfCompletedIsExplained() {
        let text = Self.messages(MigrationPoliciesChecks.doNotAlertWhenCompleted(TitleRulePolicy.self))
        #expect(
            text.contains(
                "apply patch is not completed, so its doNotAlert must be NO; it is YES. (Zarra's rule looked at the title"
            ))
        #expect(text.contains("Call the bank is completed, so its doNotAlert must be YES; it is NO."))
    }

    @Test func forgettingToAssociateLosesTheCategories() {
        let text = Self.messages(MigrationPoliciesChecks.doNotAlertWhenCompleted(ForgetfulPolicy.self))
        #expect(text.contains("lost their categories"))
        #expect(text.contains("manager.associate(sourceInstance:withDestinationInstance:for:)"))
    }

    @Test func aQuotedYesIsExplained() {
        let text = Self.messages(
            MigrationPoliciesChecks.doNotAlertValueExpression {
                #"TERNARY($source.completed == YES OR $source.dueDate == nil, "YES", "NO")"#
            })
        #expect(text.contains("A quoted \"YES\" is a string"))
    }

    @Test func anExpressionThatForgetsTheDueDateIsExplained() {
        let text = Self.messages(MigrationPoliciesChecks.doNotAlertValueExpression { "$source.completed" })
        #expect(
            text.contains(
                "Someday: learn Welsh is not completed and has no due date, so doNotAlert must be YES; your expression $source.completed gave NO."
            ))
        let unparsable = Self.messages(
            MigrationPoliciesChecks.doNotAlertValueExpression { "TERNARY($source.completed == YES" })
        #expect(unparsable.contains("does not parse"))
    }

    @Test func theDefaultMappingAloneLosesCompletion() {
        let text = Self.messages(
            MigrationPoliciesChecks.completedDateMappingModel { v2, v3 in
                MappingModel.defaultMappingModel(forSourceModel: v2, destinationModel: v3)
            })
        #expect(
            text.contains(
                "Archive mail was completed and due 2009-05-31 09:00 UTC, so its completedDate must be 2009-05-31 09:00 UTC; it is none."
            ))
        #expect(text.contains("Water the plants was completed, so its doNotAlert must be YES; it is NO."))
        #expect(!text.contains("Buy milk"))
        let wrongPair = Self.messages(
            MigrationPoliciesChecks.completedDateMappingModel { v2, _ in
                MappingModel.defaultMappingModel(forSourceModel: v2, destinationModel: v2)
            })
        #expect(wrongPair.contains("does not match versions 2 and 3"))
    }
}
