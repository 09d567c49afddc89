/// The rendered book's stylesheet and search script.
enum SiteAssets {
    /// The stylesheet: colours in custom properties so the dark theme (which follows the
    /// system) and print only swap values; a phone layout under 700 px; output, SQL and error
    /// blocks wrap, Swift listings scroll with a visible scrollbar; print drops the navigation.
    static let css = """
        :root {
          color-scheme: light dark;
          --ink: #1d2330; --muted: #5b6475; --accent: #b4462b; --paper: #fffdf8; --side: #f3efe6; --rule: #e6e0d2;
          --side-rule: #e2dccd; --field: #ffffff; --field-rule: #cfc7b4; --code: #f6f4ef;
          --out-bg: #1f2430; --out-ink: #e6e1cf; --out-label: #8a93a6;
          --kw: #9b2393; --str: #c41a16; --com: #5d6c79; --num: #1c00cf; --type: #0b4f79; --attr: #815f03;
          --er-box: #ffffff; --er-head: #e9dfc7; --er-stroke: #8c7f64; --er-text: #1d2330; --er-attr: #333333;
          --scroll-thumb: #b9b09c;
        }
        @media screen and (prefers-color-scheme: dark) {
          :root {
            --ink: #e4e1d8; --muted: #a3abbb; --accent: #f0875f; --paper: #16181d; --side: #1e2128; --rule: #333845;
            --side-rule: #2c303a; --field: #262a33; --field-rule: #454b59; --code: #21252d;
            --out-bg: #0e1015; --out-ink: #e6e1cf; --out-label: #8a93a6;
            --kw: #ff7ab2; --str: #ff8170; --com: #8d99a8; --num: #d9c97c; --type: #6bdfff; --attr: #e0b061;
            --er-box: #21252d; --er-head: #3a3527; --er-stroke: #a89a7b; --er-text: #ece8dc; --er-attr: #d3d0c8;
            --scroll-thumb: #555c6b;
          }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; display: flex; font: 17px/1.6 Georgia, "DejaVu Serif", serif; color: var(--ink); background: var(--paper); }
        a { color: var(--accent); }
        .topbar { display: none; }
        .sidebar { position: sticky; top: 0; height: 100vh; overflow-y: auto; width: 290px; flex: none; padding: 24px 20px; background: var(--side); border-right: 1px solid var(--side-rule); font: 15px/1.5 "DejaVu Sans", Helvetica, sans-serif; }
        .sidebar a { color: var(--ink); text-decoration: none; }
        .sidebar a:hover { color: var(--accent); }
        .book-title { font-weight: bold; font-size: 18px; margin: 0 0 14px; }
        .sidebar h4 { margin: 20px 0 6px; color: var(--muted); text-transform: uppercase; font-size: 12px; letter-spacing: .08em; }
        .sidebar ol { padding-left: 24px; margin: 0; }
        .sidebar ul.contents { list-style: none; padding-left: 0; margin: 0 0 4px; }
        .sidebar li { margin: 3px 0; }
        .contents li.current > a { color: var(--accent); font-weight: bold; }
        /* The book's two parts: a heading over each part's chapters, and a line above each chapter's title. */
        .sidebar h4.part { color: var(--ink); margin-top: 14px; }
        .sidebar h4.part .part-title { text-transform: none; letter-spacing: 0; font-weight: normal; color: var(--muted); }
        .part-label { margin: 0 0 -4px; font: 13px/1.4 "DejaVu Sans", Helvetica, sans-serif; text-transform: uppercase; letter-spacing: .08em; color: var(--muted); }
        #search { width: 100%; padding: 7px 10px; border: 1px solid var(--field-rule); border-radius: 6px; font-size: 14px; background: var(--field); color: var(--ink); }
        #results { list-style: none; padding: 0; margin: 8px 0 0; }
        #results li { margin: 6px 0; font-size: 13px; }
        #results small { color: var(--muted); display: block; }
        main { flex: 1; min-width: 0; padding: 32px 56px 64px; }
        article { max-width: 820px; overflow-wrap: break-word; }
        /* A wide screen widens listings, output and diagrams, not the prose: at 1400 px a
           listing wrapped inside an 820 px column with 500 px of screen to spare. */
        @media (min-width: 1300px) {
          article { max-width: 1080px; }
          article > :not(pre):not(figure):not(.table-wrap) { max-width: 820px; }
        }
        h1 { font-size: 34px; line-height: 1.2; margin-top: 8px; }
        h2 { font-size: 24px; margin-top: 40px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
        code { font: 14px/1.5 "DejaVu Sans Mono", Menlo, monospace; background: var(--code); padding: 1px 4px; border-radius: 3px; }
        pre { padding: 14px 16px; border-radius: 8px; background: var(--code); border: 1px solid var(--rule); }
        pre code { background: none; padding: 0; display: block; line-height: 1.45; }
        /* Short code in prose and hyphenated words in listings stay on one line (the renderer
           marks them): `self ==` / `%@` or `--` / `sql` on two lines read as two things. */
        code.nowrap, code .nowrap { white-space: nowrap; }
        /* A listing's long line wraps and continues four characters deeper than it starts, as
           Xcode wraps (at most 40% in, for a phone); a word longer than the column breaks
           rather than hides. */
        pre.code { overflow-x: auto; scrollbar-width: thin; scrollbar-color: var(--scroll-thumb) transparent; }
        pre.code .line { display: block; min-height: 1.45em; white-space: pre-wrap; overflow-wrap: anywhere;
                         --hang: min(calc((var(--indent, 0) + 4) * 1ch), 40%); padding-left: var(--hang); text-indent: calc(-1 * var(--hang)); }
        /* A line's own indentation, at most 36% of the column (a continuation still hangs deeper);
           the spaces stay in the box, clipped, so copying the listing keeps them. */
        pre.code .indent { display: inline-block; width: min(calc(var(--indent, 0) * 1ch), 36%); overflow: hidden; vertical-align: top; text-indent: 0; white-space: pre; }
        /* Output, SQL and error messages wrap: nothing is cut off. */
        pre.output { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--out-bg); color: var(--out-ink); border-color: var(--out-bg); }
        pre.output code { white-space: inherit; overflow-wrap: inherit; }
        pre.output .line { display: block; min-height: 1.45em; --hang: min(calc((var(--indent, 0) + 2) * 1ch), 40%); padding-left: var(--hang); text-indent: calc(-1 * var(--hang)); }
        /* A line and the caret line under it that points into it scroll together instead. */
        pre.output .aligned { display: block; white-space: pre; overflow-x: auto; scrollbar-width: thin; scrollbar-color: var(--out-label) transparent; }
        pre.output::before { content: "output"; display: block; font: 11px sans-serif; letter-spacing: .1em; text-transform: uppercase; color: var(--out-label); margin-bottom: 6px; }
        .table-wrap { overflow-x: auto; margin: 16px 0; scrollbar-width: thin; scrollbar-color: var(--scroll-thumb) transparent; container-type: inline-size; }
        /* A table in a column too narrow for it: each row a card, each cell under its heading.
           Five columns need 640 px, three 600 px (at 820 px beside the sidebar, 514 px, the
           names table broke NSPersistentStoreCoordinator over three lines). */
        @container (max-width: 640px) {
          table.wide, table.wide tbody, table.wide tr, table.wide td { display: block; }
          table.wide thead { display: none; }
          table.wide tr { border: 1px solid var(--rule); border-radius: 6px; margin: 0 0 12px; padding: 6px 0; }
          table.wide td { border: 0; padding: 2px 12px; }
          table.wide td:empty { display: none; }
          table.wide td::before { content: attr(data-label); display: block; font: bold 12px/1.6 "DejaVu Sans", Helvetica, sans-serif; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; }
          /* A row's number heads its card on one line: "# 7", not "#" above "7". */
          table.wide td[data-label="#"] { font-weight: bold; }
          table.wide td[data-label="#"]::before { display: inline; margin-right: .4em; }
        }
        @container (max-width: 600px) {
          table.three, table.three tbody, table.three tr, table.three td { display: block; }
          table.three thead { display: none; }
          table.three tr { border: 1px solid var(--rule); border-radius: 6px; margin: 0 0 12px; padding: 6px 0; }
          table.three td { border: 0; padding: 2px 12px; }
          table.three td:empty { display: none; }
          table.three td::before { content: attr(data-label); display: block; font: bold 12px/1.6 "DejaVu Sans", Helvetica, sans-serif; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; }
        }
        table { border-collapse: collapse; font-size: 15px; }
        th, td { text-align: left; vertical-align: top; padding: 4px 10px; border-bottom: 1px solid var(--rule); }
        td code, th code { overflow-wrap: break-word; }
        .keyword { color: var(--kw); font-weight: bold; } .string { color: var(--str); } .comment { color: var(--com); font-style: italic; }
        .number { color: var(--num); } .type { color: var(--type); } .attribute { color: var(--attr); }
        /* A diagram is drawn twice, side by side and stacked; the rules after this stylesheet
           show the stacked drawing where the column is too narrow for the other at 85%. */
        figure.diagram { margin: 20px 0; overflow-x: auto; scrollbar-width: thin; scrollbar-color: var(--scroll-thumb) transparent; container-type: inline-size; }
        svg.er { max-width: 100%; height: auto; font: 13px "DejaVu Sans", sans-serif; }
        svg.er-stacked { display: none; }
        svg.er .box { fill: var(--er-box); stroke: var(--er-stroke); } svg.er .head { fill: var(--er-head); stroke: var(--er-stroke); }
        svg.er .title { font-weight: bold; fill: var(--er-text); } svg.er .attr { fill: var(--er-attr); font-size: 12px; }
        svg.er .link { stroke: var(--accent); stroke-width: 1.5; } svg.er .arrow { fill: var(--paper); stroke: var(--accent); stroke-width: 1.5; } svg.er .label { fill: var(--accent); font-size: 11px; paint-order: stroke; stroke: var(--paper); stroke-width: 3px; }
        .pager { display: flex; justify-content: space-between; gap: 16px; max-width: 820px; margin-top: 48px; padding-top: 16px; border-top: 1px solid var(--rule); font-family: sans-serif; }
        .pager a { color: var(--accent); text-decoration: none; }
        .pager .next { text-align: right; margin-left: auto; }
        @media (max-width: 960px) { main { padding: 24px 28px 48px; } .sidebar { width: 250px; } }
        /* A phone: the text first, the contents behind the top bar's button. */
        @media (max-width: 699px) {
          body { display: flex; flex-direction: column; font-size: 16px; }
          .topbar { display: flex; order: 0; position: sticky; top: 0; z-index: 2; align-items: center; justify-content: space-between; gap: 12px;
                    padding: 8px 16px; background: var(--side); border-bottom: 1px solid var(--side-rule); font: 15px/1.4 "DejaVu Sans", Helvetica, sans-serif; }
          .topbar-title { color: var(--ink); font-weight: bold; text-decoration: none; }
          .menu-toggle { color: var(--ink); text-decoration: none; border: 1px solid var(--field-rule); border-radius: 6px; padding: 4px 12px; background: var(--field); }
          .sidebar { order: 2; position: static; width: auto; height: auto; border-right: 0; border-top: 1px solid var(--side-rule); }
          .js .sidebar { display: none; order: 1; border-top: 0; border-bottom: 1px solid var(--side-rule); }
          .js body.nav-open .sidebar { display: block; }
          .sidebar .book-title { display: none; }
          main { order: 1; padding: 16px 16px 40px; }
          h1 { font-size: 28px; } h2 { font-size: 21px; }
          pre { padding: 10px 12px; }
          code { font-size: 13px; }
          table { font-size: 14px; }
          .pager { flex-direction: column; }
        }
        /* Paper: no navigation, every line wrapped, dark ink on white. */
        @media print {
          :root { --ink: #000; --muted: #444; --accent: #8a2f17; --paper: #fff; --code: #f4f4f4; --rule: #bbb;
                  --kw: #7a1274; --str: #a3140f; --com: #555; --num: #1c00cf; --type: #0b4f79; --attr: #6b4e00;
                  --er-box: #fff; --er-head: #eee; --er-stroke: #666; --er-text: #000; --er-attr: #222; }
          body { display: block; font-size: 11pt; background: #fff; color: #000; }
          .sidebar, .topbar, .pager, #search, #results { display: none !important; }
          main { padding: 0; }
          article { max-width: none; }
          pre, pre.code, pre.output { white-space: pre-wrap; overflow: visible; overflow-wrap: anywhere; background: #fff; color: #000; border: 1px solid #999; break-inside: auto;
                                      box-decoration-break: clone; -webkit-box-decoration-break: clone; }
          pre code, pre.output .aligned { white-space: pre-wrap; }
          pre.output::before { color: #555; }
          .table-wrap, figure.diagram { overflow: visible; }
          td code, th code { overflow-wrap: anywhere; }
          h1, h2, h3, .part-label { break-after: avoid; }
          .part-label { color: #444; font-size: 9pt; }
          figure.diagram, tr { break-inside: avoid; }
          /* A page is wide enough for the boxes side by side (at 80% or more), and they take less of it. */
          figure.diagram > svg.er-wide { display: block !important; }
          figure.diagram > svg.er-stacked { display: none !important; }
          a { color: inherit; }
        }
        """

    /// The search box's script, and the phone layout's contents button.
    static let searchScript = """
        // On a phone the top bar's "Contents" button shows and hides the sidebar.
        document.addEventListener("DOMContentLoaded", function () {
          var toggle = document.querySelector(".menu-toggle");
          if (!toggle) return;
          toggle.addEventListener("click", function (event) {
            event.preventDefault();
            var open = document.body.classList.toggle("nav-open");
            toggle.setAttribute("aria-expanded", open ? "true" : "false");
          });
        });
        // Searches every section of the book for all the words typed.
        document.addEventListener("DOMContentLoaded", function () {
          var box = document.getElementById("search"), list = document.getElementById("results");
          function run() {
            var words = box.value.toLowerCase().split(/\\s+/).filter(function (w) { return w.length > 1; });
            list.innerHTML = "";
            if (words.length === 0) return;
            var hits = SEARCH_INDEX.filter(function (e) {
              var hay = (e.title + " " + e.text).toLowerCase();
              return words.every(function (w) { return hay.indexOf(w) >= 0; });
            }).slice(0, 12);
            if (hits.length === 0) { list.innerHTML = "<li>No section mentions that.</li>"; return; }
            hits.forEach(function (e) {
              var li = document.createElement("li"), a = document.createElement("a");
              a.href = e.url; a.textContent = e.title;
              var small = document.createElement("small"); small.textContent = e.page;
              li.appendChild(a); li.appendChild(small); list.appendChild(li);
            });
          }
          box.addEventListener("input", run);
          // A link such as index.html?q=transient opens with that search done.
          var query = new URLSearchParams(window.location.search).get("q");
          if (query) { box.value = query; run(); }
        });
        """
}
