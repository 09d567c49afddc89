// The CoreData module: Apple's Core Data API, Apple's names and shapes, on ObjectGraph.
//
// It re-exports Foundation, as Apple's CoreData does, and imports ObjectGraph without
// re-exporting it: a file that imports CoreData sees `NSManagedObjectContext` and never
// `ManagedObjectContext`, so ObjectGraph's unprefixed names (`Predicate`, `StoreType`) cannot
// collide with an application's own types. Each Apple name is a typealias of the ObjectGraph
// type that implements it, so an object is one object whichever name a file uses, and an
// extension here only adds Apple's spellings (enum cases, constants, notification names) that
// ObjectGraph's Swift names do not already give. See the DocC article "What differs on Linux".
@_exported import Foundation
import ObjectGraph
