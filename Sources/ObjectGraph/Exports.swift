// ObjectGraph re-exports Foundation, so a file that imports only ObjectGraph has Foundation
// too (URL, Date, Data) and can write `Predicate`, `Expression`, `SortDescriptor` and
// `PredicateError` as types: a declaration of the imported module shadows one of a module it
// re-exports. A file that imports Foundation as well sees swift-foundation's types of the
// same names beside ours, and Swift 6.3 calls a bare type annotation ambiguous there.
@_exported import Foundation
