import CoreData
import WorkbookSupport

enum Inheritance {
    static func run(_ bench: Workbench) throws {
        // The listings print with `print`, as a reader's code would; here into the output.
        let print = bench.print
        let context = try bench.makeContext(model: FetchingModels.drawing())
        // ANCHOR: graphics
        for (entity, name) in [("Circle", "sun"), ("TextArea", "caption"), ("Line", "horizon")] {
            let graphic = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
            graphic.setValue(name, forKey: "name")
        }
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Graphic")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let graphics = try context.fetch(request)
        // ANCHOR_END: graphics
        bench.print("A fetch for the abstract Graphic returns \(graphics.count) objects:")
        for graphic in graphics {
            bench.print("  \(graphic.entity.name): \(Workbench.describe(graphic.value(forKey: "name")))")
        }
        // ANCHOR: no-subentities
        let circles = NSFetchRequest<NSManagedObject>(entityName: "Graphic")
        circles.includesSubentities = false
        let onlyGraphics = try context.count(for: circles)
        // ANCHOR_END: no-subentities
        bench.print(
            "With includesSubentities = false: \(onlyGraphics) (Graphic is abstract: it has no instances of its own).")
        // ANCHOR: insert-abstract
        do {
            _ = try context.insertNewObject(forEntityName: "Graphic")
        } catch {
            print("Inserting a Graphic: \(error)")
        }
        // ANCHOR_END: insert-abstract
    }
}
