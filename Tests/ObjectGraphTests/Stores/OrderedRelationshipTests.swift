import Foundation
import GRDB
import ObjectGraph
import Testing

// Ordered to-many relationships in the SQLite store: Core Data keeps the order of a one-to-many
// in the destination table's `Z_FOK_<INVERSE>` column and of a many-to-many in the join
// table's `Z_FOK_` columns (contentful's fixture has both); an ordered relationship comes back
// in its order, in this process and in the next.
@Suite struct OrderedRelationshipTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Playlist") {
                AttributeDescription("name", .string)
                RelationshipDescription("songs", toMany: "Song", inverse: "playlist", ordered: true)
            }
            EntityDescription("Song") {
                AttributeDescription("title", .string)
                RelationshipDescription("playlist", toOne: "Playlist", inverse: "songs")
                RelationshipDescription("tags", toMany: "Tag", inverse: "songs", ordered: true)
            }
            EntityDescription("Tag") {
                AttributeDescription("label", .string)
                RelationshipDescription("songs", toMany: "Song", inverse: "tags")
            }
        }
    }

    static func open(_ url: URL) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    static func titles(_ value: Any?) throws -> [String] {
        try #require(value as? [ManagedObject]).map { try $0.checkedValue(forKey: "title") as? String ?? "?" }
    }

    static func object(_ context: ManagedObjectContext, _ entity: String, _ key: String, _ value: String) throws
        -> ManagedObject
    {
        let request = FetchRequest(entityName: entity)
        request.predicate = try Predicate(checkedFormat: "%K == %@", key, value)
        return try #require(try context.fetch(request).first)
    }

    // A child context's order reaches the store through its parent (NSManagedObjectContext,
    // "Parent Store": a child's save pushes its changes, the order of an NSOrderedSet
    // included, into the parent), and a child reads the parent's unsaved order.
    @Test func anOrderSetInAChildContextIsSavedThroughItsParent() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Music.sqlite")
        do {
            let parent = try Self.open(url)
            let playlist = try parent.insertNewObject(forEntityName: "Playlist")
            var songs: [ManagedObject] = []
            for title in ["One", "Two", "Three"] {
                let song = try parent.insertNewObject(forEntityName: "Song")
                try song.checkedSetValue(title, forKey: "title")
                songs.append(song)
            }
            try playlist.checkedSetValue(songs, forKey: "songs")
            try parent.save()

            let child = ManagedObjectContext(concurrencyType: .confinement, parent: parent)
            let inChild = child.object(with: playlist.objectID)
            #expect(try Self.titles(inChild.checkedValue(forKey: "songs")) == ["One", "Two", "Three"])
            let reversed = try #require(inChild.checkedValue(forKey: "songs") as? [ManagedObject]).reversed().map { $0 }
            try inChild.checkedSetValue(reversed, forKey: "songs")
            let added = try child.insertNewObject(forEntityName: "Song")
            try added.checkedSetValue("Four", forKey: "title")
            try added.checkedSetValue(inChild, forKey: "playlist")
            try child.save()
            #expect(try Self.titles(playlist.checkedValue(forKey: "songs")) == ["Three", "Two", "One", "Four"])
            try parent.save()
        }
        let reopened = try Self.open(url)
        let playlist = try #require(try reopened.fetch(FetchRequest(entityName: "Playlist")).first)
        #expect(try Self.titles(playlist.checkedValue(forKey: "songs")) == ["Three", "Two", "One", "Four"])
    }

    @Test func anOrderedOneToManyComesBackInItsOrder() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Music.sqlite")
        do {
            let context = try Self.open(url)
            let playlist = try context.insertNewObject(forEntityName: "Playlist")
            try playlist.checkedSetValue("Road", forKey: "name")
            var songs: [ManagedObject] = []
            for title in ["Zebra", "Apple", "Mango"] {
                let song = try context.insertNewObject(forEntityName: "Song")
                try song.checkedSetValue(title, forKey: "title")
                songs.append(song)
            }
            try playlist.checkedSetValue(songs, forKey: "songs")
            #expect(try Self.titles(playlist.checkedValue(forKey: "songs")) == ["Zebra", "Apple", "Mango"])
            try context.save()
        }
        // The order as plain SQL reads it: Z_FOK_PLAYLIST, right after ZPLAYLIST.
        let queue = try DatabaseQueue(path: url.path)
        try queue.read { (db: Database) throws -> Void in
            #expect(
                try db.columns(in: "ZSONG").map(\.name).prefix(5) == [
                    "Z_PK", "Z_ENT", "Z_OPT", "ZPLAYLIST", "Z_FOK_PLAYLIST",
                ])
            #expect(
                try String.fetchAll(db, sql: "SELECT ZTITLE FROM ZSONG ORDER BY Z_FOK_PLAYLIST") == [
                    "Zebra", "Apple", "Mango",
                ])
        }
        try queue.close()

        let context = try Self.open(url)
        let playlist = try Self.object(context, "Playlist", "name", "Road")
        #expect(try Self.titles(playlist.checkedValue(forKey: "songs")) == ["Zebra", "Apple", "Mango"])
        // Reordered, one added through the inverse (it goes last), one removed.
        let songs = try #require(try playlist.checkedValue(forKey: "songs") as? [ManagedObject])
        try playlist.checkedSetValue([songs[2], songs[0], songs[1]], forKey: "songs")
        let late = try context.insertNewObject(forEntityName: "Song")
        try late.checkedSetValue("Kiwi", forKey: "title")
        try late.checkedSetValue(playlist, forKey: "playlist")
        try songs[0].checkedSetValue(nil, forKey: "playlist")
        #expect(try Self.titles(playlist.checkedValue(forKey: "songs")) == ["Mango", "Apple", "Kiwi"])
        try context.save()
        let again = try Self.open(url)
        #expect(
            try Self.titles(Self.object(again, "Playlist", "name", "Road").checkedValue(forKey: "songs")) == [
                "Mango", "Apple", "Kiwi",
            ])
    }

    @Test func anOrderedManyToManyKeepsItsOrderInTheJoinTable() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Music.sqlite")
        do {
            let context = try Self.open(url)
            var tags: [ManagedObject] = []
            for label in ["rock", "calm", "jazz"] {
                let tag = try context.insertNewObject(forEntityName: "Tag")
                try tag.checkedSetValue(label, forKey: "label")
                tags.append(tag)
            }
            let song = try context.insertNewObject(forEntityName: "Song")
            try song.checkedSetValue("Blue", forKey: "title")
            try song.checkedSetValue([tags[2], tags[0], tags[1]], forKey: "tags")
            try context.save()
        }
        // Song (2) sorts before Tag (3): the table is named after Song.tags; only the ordered
        // side has an order column.
        let queue = try DatabaseQueue(path: url.path)
        try queue.read { (db: Database) throws -> Void in
            #expect(try db.columns(in: "Z_2TAGS").map(\.name) == ["Z_2SONGS", "Z_3TAGS", "Z_FOK_3TAGS"])
            let labels = try String.fetchAll(
                db, sql: "SELECT t.ZLABEL FROM Z_2TAGS j JOIN ZTAG t ON t.Z_PK = j.Z_3TAGS ORDER BY j.Z_FOK_3TAGS")
            #expect(labels == ["jazz", "rock", "calm"])
        }
        try queue.close()
        let context = try Self.open(url)
        let song = try Self.object(context, "Song", "title", "Blue")
        let labels = try #require(try song.checkedValue(forKey: "tags") as? [ManagedObject]).map {
            try $0.checkedValue(forKey: "label") as? String
        }
        #expect(labels == ["jazz", "rock", "calm"])
        // Adding through the unordered inverse appends, as Core Data does.
        let tag = try context.insertNewObject(forEntityName: "Tag")
        try tag.checkedSetValue("new", forKey: "label")
        try tag.mutableSetValue(forKey: "songs").insert(song)
        try context.save()
        let reopened = try Self.open(url) // kept: objects need their context
        let again = try Self.object(reopened, "Song", "title", "Blue")
        #expect(
            try #require(try again.checkedValue(forKey: "tags") as? [ManagedObject]).map {
                try $0.checkedValue(forKey: "label") as? String
            } == ["jazz", "rock", "calm", "new"])
    }

    @Test func aStoreWithoutOrderColumnsStillOpensAndReadsInKeyOrder() throws {
        // A store an earlier ObjectGraph wrote had no Z_FOK_ column: read as it is, not refused.
        let directory = try TemporaryDirectory()
        let url = directory.file("Music.sqlite")
        do {
            let context = try Self.open(url)
            let playlist = try context.insertNewObject(forEntityName: "Playlist")
            try playlist.checkedSetValue("Old", forKey: "name")
            for title in ["b", "a"] {
                let song = try context.insertNewObject(forEntityName: "Song")
                try song.checkedSetValue(title, forKey: "title")
                try song.checkedSetValue(playlist, forKey: "playlist")
            }
            try context.save()
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "ALTER TABLE ZSONG DROP COLUMN Z_FOK_PLAYLIST") }
        try queue.close()
        let context = try Self.open(url)
        let playlist = try Self.object(context, "Playlist", "name", "Old")
        #expect(try Self.titles(playlist.checkedValue(forKey: "songs")).sorted() == ["a", "b"])
        let song = try context.insertNewObject(forEntityName: "Song")
        try song.checkedSetValue("c", forKey: "title")
        try song.checkedSetValue(playlist, forKey: "playlist")
        try context.save()
        let reopened = try Self.open(url)
        #expect(
            try Self.titles(Self.object(reopened, "Playlist", "name", "Old").checkedValue(forKey: "songs")).count == 3)
    }
}
