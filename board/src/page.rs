//! The board's page, shared by both hosts: `splut gui` serves these texts
//! from its binary, and `scripts/web` copies the same files (`board/page/`)
//! into the static board. Each host adds its own `host.js`, the module
//! `index.html` loads before the page's scripts: an empty one from the
//! server ([`NATIVE_HOST_JS`]), the API answered in the page for the
//! static board (`web/js/host.js`).

/// The page: the board, the panels and the scripts it loads.
pub const INDEX_HTML: &str = include_str!("../page/index.html");
/// The page's drawing and its calls to the API.
pub const APP_JS: &str = include_str!("../page/app.js");
/// The page's words for what steps did (the rules' events).
pub const NARRATE_JS: &str = include_str!("../page/narrate.js");
/// The page's looks.
pub const STYLE_CSS: &str = include_str!("../page/style.css");
/// `host.js` where a server answers the API (`splut gui`): nothing to
/// load, the page calls the server with `fetch`.
pub const NATIVE_HOST_JS: &str =
    "// splut gui: the page's API is this server; the page fetches it.\nexport {};\n";

/// The page's files by name, with their content types: what a host serves
/// (its own `host.js` besides).
pub const FILES: [(&str, &str, &str); 4] = [
    ("index.html", "text/html; charset=utf-8", INDEX_HTML),
    ("app.js", "text/javascript; charset=utf-8", APP_JS),
    ("narrate.js", "text/javascript; charset=utf-8", NARRATE_JS),
    ("style.css", "text/css; charset=utf-8", STYLE_CSS),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_the_hosts_module_before_its_scripts() {
        let at = |s: &str| INDEX_HTML.find(s).unwrap_or(usize::MAX);
        let host = at("<script type=\"module\" src=\"host.js\">");
        assert!(host < at("narrate.js") && host < at("app.js"));
        // Every script and sheet the page names is one of its files or host.js.
        for name in ["narrate.js", "app.js", "style.css"] {
            assert!(FILES.iter().any(|f| f.0 == name) && at(name) < usize::MAX);
        }
    }

    /// No script of either host reads an SPN or splits one: every
    /// position comes with its board read by the rules (`crate::view`),
    /// and the page only draws it (issue 52).
    #[test]
    fn no_script_reads_an_spn() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut scripts: Vec<(String, String)> = vec![
            ("app.js".into(), APP_JS.into()),
            ("narrate.js".into(), NARRATE_JS.into()),
        ];
        // The static board's own scripts, where the workspace has them.
        if let Ok(dir) = std::fs::read_dir(root.join("../web/js")) {
            for e in dir.flatten() {
                let path = e.path();
                let ext = path.extension().and_then(|x| x.to_str()).unwrap_or("");
                if ext == "js" || ext == "mjs" {
                    let text = std::fs::read_to_string(&path).unwrap();
                    scripts.push((path.display().to_string(), text));
                }
            }
        }
        assert!(scripts.len() > 2, "web/js not found");
        for (name, text) in &scripts {
            for word in ["parseSpn", "seatsOn", "parseSPN"] {
                assert!(!text.contains(word), "{name} has {word}");
            }
            for (n, line) in text.lines().enumerate() {
                let l = line.to_lowercase();
                assert!(
                    !(l.contains("spn") && l.contains(".split(")),
                    "{name}:{}: an SPN split: {line}",
                    n + 1
                );
            }
        }
    }
}
