/// The rendered book's stylesheet and search script.
enum SiteAssets {
    static let css = """
        :root { --ink: #1d2330; --muted: #5b6475; --accent: #b4462b; --paper: #fffdf8; --side: #f3efe6; --code: #f6f4ef; }
        * { box-sizing: border-box; }
        body { margin: 0; display: flex; font: 17px/1.6 Georgia, "DejaVu Serif", serif; color: var(--ink); background: var(--paper); }
        .sidebar { position: sticky; top: 0; height: 100vh; overflow-y: auto; width: 290px; flex: none; padding: 24px 20px; background: var(--side); border-right: 1px solid #e2dccd; font: 15px/1.5 "DejaVu Sans", Helvetica, sans-serif; }
        .sidebar a { color: var(--ink); text-decoration: none; }
        .sidebar a:hover { color: var(--accent); }
        .book-title { font-weight: bold; font-size: 18px; margin: 0 0 14px; }
        .sidebar h4 { margin: 20px 0 6px; color: var(--muted); text-transform: uppercase; font-size: 12px; letter-spacing: .08em; }
        .sidebar ol { padding-left: 18px; margin: 0; }
        .contents li.current > a { color: var(--accent); font-weight: bold; }
        #search { width: 100%; padding: 7px 10px; border: 1px solid #cfc7b4; border-radius: 6px; font-size: 14px; }
        #results { list-style: none; padding: 0; margin: 8px 0 0; }
        #results li { margin: 6px 0; font-size: 13px; }
        #results small { color: var(--muted); display: block; }
        main { flex: 1; min-width: 0; padding: 32px 56px 64px; }
        article { max-width: 820px; }
        h1 { font-size: 34px; line-height: 1.2; margin-top: 8px; }
        h2 { font-size: 24px; margin-top: 40px; border-bottom: 1px solid #e6e0d2; padding-bottom: 4px; }
        code { font: 14px/1.5 "DejaVu Sans Mono", Menlo, monospace; background: var(--code); padding: 1px 4px; border-radius: 3px; }
        pre { overflow-x: auto; padding: 14px 16px; border-radius: 8px; background: var(--code); border: 1px solid #e6e0d2; }
        pre code { background: none; padding: 0; display: block; line-height: 1.45; }
        table { border-collapse: collapse; margin: 16px 0; font-size: 15px; }
        th, td { text-align: left; vertical-align: top; padding: 4px 10px; border-bottom: 1px solid #e6e0d2; }
        td code, th code { overflow-wrap: anywhere; }
        pre.output { background: #1f2430; color: #e6e1cf; border-color: #1f2430; }
        pre.output::before { content: "output"; display: block; font: 11px sans-serif; letter-spacing: .1em; text-transform: uppercase; color: #8a93a6; margin-bottom: 6px; }
        .keyword { color: #9b2393; font-weight: bold; } .string { color: #c41a16; } .comment { color: #5d6c79; font-style: italic; }
        .number { color: #1c00cf; } .type { color: #0b4f79; } .attribute { color: #815f03; }
        figure.diagram { margin: 20px 0; overflow-x: auto; }
        svg.er { max-width: 100%; height: auto; font: 13px "DejaVu Sans", sans-serif; }
        svg.er .box { fill: #fff; stroke: #8c7f64; } svg.er .head { fill: #e9dfc7; stroke: #8c7f64; }
        svg.er .title { font-weight: bold; } svg.er .attr { fill: #333; font-size: 12px; }
        svg.er .link { stroke: var(--accent); stroke-width: 1.5; } svg.er .label { fill: var(--accent); font-size: 11px; }
        .pager { display: flex; justify-content: space-between; max-width: 820px; margin-top: 48px; padding-top: 16px; border-top: 1px solid #e6e0d2; font-family: sans-serif; }
        .pager a { color: var(--accent); text-decoration: none; }
        @media (max-width: 800px) { body { display: block; } .sidebar { position: static; width: auto; height: auto; } main { padding: 20px; } }
        """

    static let searchScript = """
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
