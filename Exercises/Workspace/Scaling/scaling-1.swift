// scaling-1: Open a store by URL
//
// Return an NSPersistentContainer on the ToDo model (version 2), its one store the PostgreSQL
// store at the postgres:// URL you are given, loaded.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise. Without PostgreSQL the check is skipped.
// Stuck? `swift run workbook exercises hint scaling-1`.
import CoreData
import WorkbookSupport

/// scaling-1: the ToDo store at `url` (`postgres://USER@HOST:PORT/DATABASE?schema=NAME`), loaded.
func openToDoStore(at url: URL) throws -> NSPersistentContainer {
    // TODO: a container on ToDoModels.version2(), one store description for `url` of type
    // .postgres, then loadPersistentStores.
    throw NotSolvedYet()
}
