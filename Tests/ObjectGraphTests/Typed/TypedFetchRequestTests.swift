import Foundation
import Testing

@testable import ObjectGraph

/// A class whose entity has another name than the class (Xcode: entity `Gizmo`, class `GizmoMO`).
final class GizmoMO: ManagedObject {
    @Managed("name") var name: String?
}

/// A class no model declares.
final class UndeclaredThing: ManagedObject {}

// Apple, NSManagedObject init(context:), entity(), fetchRequest(); NSFetchRequest<ResultType>;
// NSManagedObjectContext fetch(_:) ("returns an array of objects of the request's result type").
@Suite struct TypedFetchRequestTests {
    @Test("Book(context:) inserts an object of the class's entity (NSManagedObject.init(context:))")
    func initWithContextInserts() throws {
        let fixture = try StackFixture(.sqlite, model: try typedModel())
        let maker = TypedMaker(context: fixture.context)
        #expect(maker.entity.name == "TypedMaker")
        #expect(maker.objectID.isTemporaryID)
        #expect(fixture.context.insertedObjects.contains(maker))
        maker.name = "Acme"
        try fixture.context.save()
        #expect(!maker.objectID.isTemporaryID)
        #expect(try fixture.secondContext().count(for: TypedMaker.fetchRequest()) == 1)
    }

    @Test("Book.fetchRequest() is a FetchRequest<Book> and fetch(_:) returns [Book] (NSManagedObject.fetchRequest())")
    func typedRequestsFetchTheirClass() throws {
        let fixture = try StackFixture(.sqlite, model: try typedModel())
        for name in ["b", "a", "c"] { TypedMaker(context: fixture.context).name = name }
        try fixture.context.save()
        let request = TypedMaker.fetchRequest()
        #expect(request.entityName == "TypedMaker")
        request.sortDescriptors = [SortDescriptor(key: "name")]
        request.predicate = try ObjectGraph.Predicate(checkedFormat: "name != %@", "c")
        let makers: [TypedMaker] = try fixture.secondContext().fetch(request)
        #expect(makers.map(\.name) == ["a", "b"])
        // The copy keeps the type and the settings.
        let copy: FetchRequest<TypedMaker> = request.copy()
        #expect(copy.sortDescriptors == request.sortDescriptors)
        #expect(try fixture.secondContext().fetch(copy).count == 2)
    }

    @Test("FetchRequest(entityName:) stays untyped: [ManagedObject] (NSFetchRequest<NSManagedObject>)")
    func untypedRequestsKeepWorking() throws {
        let fixture = try StackFixture(.inMemory, model: try typedModel())
        TypedMaker(context: fixture.context).name = "Acme"
        let request = FetchRequest(entityName: "TypedMaker")
        #expect(type(of: request) == FetchRequest<ManagedObject>.self)
        let objects = try fixture.context.fetch(request)
        #expect(objects.count == 1)
        #expect(objects.first is TypedMaker)
        // Functions that take any request take typed ones too.
        #expect(try fixture.context.count(for: TypedMaker.fetchRequest()) == 1)
        #expect(try fixture.context.fetchObjectIDs(TypedMaker.fetchRequest()).count == 1)
    }

    @Test("a typed request for an entity of another class throws, naming both (NSInvalidArgumentException)")
    func aMismatchedTypedRequestThrows() throws {
        let fixture = try StackFixture(.inMemory, model: try typedModel())
        TypedMaker(context: fixture.context).name = "Acme"
        let wrong = FetchRequest<TypedGadget>(entityName: "TypedMaker")
        let error = try #require(throws: CoreDataError.self) { try fixture.context.fetch(wrong) }
        #expect(error.exceptionName == .invalidArgument)
        #expect(error.description.contains("TypedMaker"))
        #expect(error.description.contains("TypedGadget"))
    }

    @Test("entity() and entity(in:) find the entity by class, whatever its name (NSManagedObject.entity())")
    func entityByClass() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Gizmo", class: GizmoMO.self) { AttributeDescription("name", .string) }
        }
        #expect(try GizmoMO.entity(in: model).name == "Gizmo")
        #expect(GizmoMO.entity().name == "Gizmo")
        #expect(GizmoMO.fetchRequest().entityName == "Gizmo")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory, at: nil)
        let context = ManagedObjectContext(coordinator: coordinator)
        let gizmo = GizmoMO(context: context)
        gizmo.name = "spinner"
        #expect(try context.fetch(GizmoMO.fetchRequest()).map(\.name) == ["spinner"])
    }

    @Test("a class the model does not declare is named in the error, with how to declare it")
    func anUndeclaredClassIsExplained() throws {
        let model = try ManagedObjectModel {
            EntityDescription("UndeclaredThing") { AttributeDescription("name", .string) }
        }
        let error = try #require(throws: CoreDataError.self) { try UndeclaredThing.entity(in: model) }
        #expect(error.description.contains("class: UndeclaredThing.self"))
        // fetchRequest() names the entity after the class; the fetch then refuses the objects.
        #expect(UndeclaredThing.fetchRequest().entityName == "UndeclaredThing")
    }
}
