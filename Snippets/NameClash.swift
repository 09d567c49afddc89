// Foundation declares generic Predicate, Expression and SortDescriptor types, and on Linux its
// own NSPredicate, NSSortDescriptor and NSExpression too. CoreData re-exports Foundation and its
// own declarations hide those: a file that imports only CoreData writes Apple's names, and none
// clashes. Only a file that imports Foundation as well must name the module in a type.
import CoreData

// snippet.qualified
let adults: NSPredicate = NSPredicate(format: "age >= %@", 18 as NSNumber)
func byName() -> NSSortDescriptor { NSSortDescriptor(key: "name", ascending: true) }
// In a file that imports Foundation too, a type annotation names the module:
let minors: CoreData.NSPredicate = NSCompoundPredicate(notPredicateWithSubpredicate: adults)
// snippet.end

// snippet.typealias
// Or one declaration settles it for every file of the module, whatever they import:
typealias NSPredicate = CoreData.NSPredicate
print(minors) // NOT age >= 18
// CoreData declares no Predicate: that name is still Foundation's generic one.
let teenager = #Predicate<Int> { $0 >= 13 && $0 <= 19 }
print(try teenager.evaluate(15)) // true
// snippet.end
print(byName())
