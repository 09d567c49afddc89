// Foundation on Linux declares its own Predicate, Expression and SortDescriptor. Calls
// resolve to ObjectGraph's; a bare type annotation needs the module name or a typealias.
import Foundation
import ObjectGraph

// snippet.qualified
let adults: ObjectGraph.Predicate = try Predicate(checkedFormat: "age >= %@", 18)
func byName() -> ObjectGraph.SortDescriptor { SortDescriptor(key: "name") }
// snippet.end

// snippet.typealias
typealias Predicate = ObjectGraph.Predicate
let minors: Predicate = .not(adults)
print(minors)                  // NOT age >= 18
// snippet.end
print(byName())
