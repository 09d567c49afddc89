import ObjectGraph
import WorkbookSupport

enum Inheritance {
    static func run(_ bench: Workbench) throws {
        // The listings print with `print`, as a reader's code would; here into the output.
        let print = bench.print
        let context = try bench.makeContext(model: FetchingModels.drawing())
        // ANCHOR: graphics
        for (entity, name) in [("Circle", "sun"), ("TextArea", "caption"), ("Line", "horizon")] {
            let graphic = try context.insertNewObject(forEntityName: entity)
            try graphic.checkedSetValue(name, forKey: "name")
        }
        try context.save()
        let request = FetchRequest(entityName: "Graphic")
        request.sortDescriptors = [SortDescriptor(key: "name")]
        let graphics = try context.fetch(request)
        // ANCHOR_END: graphics
        bench.print("A fetch for the abstract Graphic returns \(graphics.count) objects:")
        for graphic in graphics { bench.print("  \(graphic.entity.name): \(Workbench.describe(try graphic.checkedValue(forKey: "name")))") }
        // ANCHOR: no-subentities
        let circles = FetchRequest(entityName: "Graphic")
        circles.includesSubentities = false
        let onlyGraphics = try context.count(for: circles)
        // ANCHOR_END: no-subentities
        bench.print("With includesSubentities = false: \(onlyGraphics) (Graphic is abstract: it has no instances of its own).")
        // ANCHOR: insert-abstract
        do {
            _ = try context.insertNewObject(forEntityName: "Graphic")
        } catch {
            print("Inserting a Graphic: \(error)")
        }
        // ANCHOR_END: insert-abstract
    }
}
