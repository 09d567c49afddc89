import Foundation

/// The SQL functions the translator's PostgreSQL dialect calls where SQLite calls the Swift
/// functions the SQLite driver registers on its connection (string comparisons with `[c]`,
/// `[d]`, `[n]`, LIKE and MATCHES with options, the sort comparators' collations). The
/// PostgreSQL store creates them in its schema; the translator writes the same names
/// (`OG_FOLD`, which PostgreSQL folds to `og_fold`), found through the connection's
/// `search_path`.
///
/// Folding is Swift's own: ``StringComparison/fold(_:_:)`` of every scalar that folding can
/// change is computed here, once, and written into `OG_FOLD` as `translate()` tables (one
/// scalar to one) and replacement lists (one to several). `OG_FOLD` decomposes the text
/// (NFD), drops the combining marks Foundation drops after a character for `[d]`, maps each
/// scalar, and composes again (NFC), which is what ``StringComparison/fold(_:_:)`` gives.
///
/// MATCHES runs PostgreSQL's regular expressions (ARE), not ICU's: the common syntax agrees
/// (classes, quantifiers, groups, alternation, `\d`, `\w`, `\s`); ICU-only syntax (possessive
/// quantifiers, `\Q...\E`, named groups, Unicode properties `\p{...}`) fails or differs.
/// The localized sort comparators are ICU collations of PostgreSQL (`und`), close to
/// Foundation's `compare(_:options:range:locale:)` but not proven equal.
enum PostgresFunctions {
    /// The statements that create (or replace) the functions and collations in the current
    /// schema.
    static var creationStatements: [String] { statements }

    private static let statements: [String] = {
        let tables = FoldTables.make()
        return [fold(tables)] + [
            """
            CREATE OR REPLACE FUNCTION OG_BEGINSWITH(s text, p text, options integer) RETURNS boolean
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $og$
              SELECT coalesce(char_length(OG_FOLD(p, options)) > 0 AND starts_with(OG_FOLD(s, options), OG_FOLD(p, options)), false)
            $og$
            """,
            """
            CREATE OR REPLACE FUNCTION OG_ENDSWITH(s text, p text, options integer) RETURNS boolean
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $og$
              SELECT coalesce(char_length(OG_FOLD(p, options)) > 0
                AND right(OG_FOLD(s, options), char_length(OG_FOLD(p, options))) = OG_FOLD(p, options), false)
            $og$
            """,
            """
            CREATE OR REPLACE FUNCTION OG_CONTAINS(s text, p text, options integer) RETURNS boolean
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $og$
              SELECT coalesce(char_length(OG_FOLD(p, options)) > 0 AND strpos(OG_FOLD(s, options), OG_FOLD(p, options)) > 0, false)
            $og$
            """,
            // The predicate's LIKE pattern as PostgreSQL's, as SQLFetchTranslator.postgresLikePattern
            // makes it (the mark is chr(63): a question mark would be taken for a placeholder).
            """
            CREATE OR REPLACE FUNCTION OG_LIKE_PATTERN(p text) RETURNS text
            LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $og$
            DECLARE
              result text := '';
              c text;
              i integer := 1;
              n integer := char_length(p);
            BEGIN
              WHILE i <= n LOOP
                c := substr(p, i, 1);
                IF c = E'\\\\' THEN
                  IF i = n THEN
                    RAISE EXCEPTION 'The backslash is a wildcard char, and cannot appear unescaped at the end of a string (LIKE pattern %)', p
                      USING ERRCODE = '2201B';
                  END IF;
                  i := i + 1;
                  c := substr(p, i, 1);
                  IF c IN ('%', '_', E'\\\\') THEN result := result || E'\\\\'; END IF;
                  result := result || c;
                ELSIF c = '*' THEN
                  result := result || '%';
                ELSIF c = chr(63) THEN
                  result := result || '_';
                ELSIF c IN ('%', '_') THEN
                  result := result || E'\\\\' || c;
                ELSE
                  result := result || c;
                END IF;
                i := i + 1;
              END LOOP;
              RETURN result;
            END
            $og$
            """,
            """
            CREATE OR REPLACE FUNCTION OG_LIKE(s text, p text, options integer) RETURNS boolean
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $og$
              SELECT coalesce(char_length(OG_FOLD(p, options)) > 0
                AND OG_FOLD(s, options) LIKE OG_LIKE_PATTERN(OG_FOLD(p, options)), false)
            $og$
            """,
            // Whole-string match (\\A...\\Z), dot matching newlines and ^ $ at line ends (the
            // w option), as Apple compiles MATCHES; [c] as the case-insensitive operator; the
            // ICU collation gives \\w and the classes Unicode's letters, as ICU's regex does.
            """
            CREATE OR REPLACE FUNCTION OG_MATCHES(s text, p text, options integer) RETURNS boolean
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $og$
              SELECT coalesce(char_length(p) > 0 AND CASE WHEN options & 1 <> 0 AND options & 4 = 0
                THEN OG_FOLD(s, options & 6) COLLATE "und-x-icu" ~* ('(' || chr(63) || 'w)\\A(' || chr(63) || ':' || OG_FOLD(p, options & 6) || ')\\Z')
                ELSE OG_FOLD(s, options & 6) COLLATE "und-x-icu" ~ ('(' || chr(63) || 'w)\\A(' || chr(63) || ':' || OG_FOLD(p, options & 6) || ')\\Z') END, false)
            $og$
            """,
            "DROP COLLATION IF EXISTS OG_LOCALIZED",
            "CREATE COLLATION OG_LOCALIZED (provider = icu, locale = 'und')",
            "DROP COLLATION IF EXISTS OG_LOCALIZED_CI",
            "CREATE COLLATION OG_LOCALIZED_CI (provider = icu, locale = 'und-u-ks-level2', deterministic = false)",
            "DROP COLLATION IF EXISTS OG_LOCALIZED_STANDARD",
            "CREATE COLLATION OG_LOCALIZED_STANDARD (provider = icu, locale = 'und-u-kn-true-ks-level2', deterministic = false)",
        ]
    }()

    /// `OG_FOLD(text, options)`: ``StringComparison/fold(_:_:)`` in PL/pgSQL; ASCII text only
    /// lower-cased under `[c]`, as Foundation folds it.
    private static func fold(_ tables: FoldTables) -> String {
        func branch(_ options: Int) -> String {
            let single = tables.single[options] ?? []
            let multi = tables.multi[options] ?? []
            let from = literal(String(String.UnicodeScalarView(single.map(\.0))))
            let to = literal(single.map(\.1).joined())
            let froms =
                multi.isEmpty ? "NULL" : "ARRAY[" + multi.map { literal(String($0.0)) }.joined(separator: ",") + "]"
            let tos = multi.isEmpty ? "NULL" : "ARRAY[" + multi.map { literal($0.1) }.joined(separator: ",") + "]"
            return "WHEN \(options) THEN t := translate(t, \(from), \(to)); froms := \(froms); tos := \(tos);"
        }
        let marks = literal("[" + String(String.UnicodeScalarView(tables.droppedMarks)) + "]")
        return """
            CREATE OR REPLACE FUNCTION OG_FOLD(s text, options integer) RETURNS text
            LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $og$
            DECLARE
              t text;
              froms text[];
              tos text[];
              i integer;
            BEGIN
              IF s IS NULL OR options & 4 <> 0 OR options & 3 = 0 THEN RETURN s; END IF;
              IF octet_length(s) = char_length(s) THEN
                IF options & 1 <> 0 THEN RETURN lower(s COLLATE "C"); END IF;
                RETURN s;
              END IF;
              t := normalize(s, NFD);
              IF options & 2 <> 0 THEN
                t := substr(t, 1, 1) || regexp_replace(substr(t, 2), \(marks), '', 'g');
              END IF;
              CASE options & 3
                \(branch(1))
                \(branch(2))
                ELSE \(branch(3).dropFirst("WHEN 3 THEN ".count))
              END CASE;
              IF froms IS NOT NULL THEN
                FOR i IN 1 .. array_length(froms, 1) LOOP
                  t := replace(t, froms[i], tos[i]);
                END LOOP;
              END IF;
              RETURN normalize(t, NFC);
            END
            $og$
            """
    }

    /// A PostgreSQL string literal.
    private static func literal(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// What Swift's folding does to each scalar, for `OG_FOLD`.
    struct FoldTables {
        /// By option bits (1 `[c]`, 2 `[d]`, 3 both): scalars that fold to one scalar.
        var single: [Int: [(Unicode.Scalar, String)]] = [:]
        /// Scalars that fold to several (ß to ss under `[c]`).
        var multi: [Int: [(Unicode.Scalar, String)]] = [:]
        /// Combining marks `[d]` drops after a character.
        var droppedMarks: [Unicode.Scalar] = []

        /// Folds every scalar folding can change (case-mapped, or changed by NFKC case
        /// folding: width variants, ligatures), decomposed as OG_FOLD sees them; ASCII letters
        /// too, for the text that is not all ASCII.
        static func make() -> FoldTables {
            var tables = FoldTables()
            var candidates: [Unicode.Scalar] = []
            for value in 0x41...0x10FFFF {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let properties = scalar.properties
                switch properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark:
                    if StringComparison.fold("a" + String(scalar), .diacriticInsensitive) == "a" {
                        tables.droppedMarks.append(scalar)
                    }
                default: break
                }
                if properties.changesWhenCaseMapped || properties.changesWhenNFKCCaseFolded {
                    candidates.append(scalar)
                }
            }
            for options in 1...3 {
                let bits = ComparisonPredicate.Options(rawValue: UInt(options))
                for scalar in candidates {
                    let s = String(scalar)
                    // OG_FOLD sees text decomposed: a precomposed scalar never reaches the table.
                    guard s.decomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(s.unicodeScalars) else {
                        continue
                    }
                    let folded = StringComparison.fold(s, bits).decomposedStringWithCanonicalMapping
                    guard !folded.unicodeScalars.elementsEqual(s.unicodeScalars) else { continue }
                    if folded.unicodeScalars.count == 1 {
                        tables.single[options, default: []].append((scalar, folded))
                    } else {
                        tables.multi[options, default: []].append((scalar, folded))
                    }
                }
            }
            return tables
        }
    }
}
