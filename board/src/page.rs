//! The board's page, shared by both hosts: `splut gui` serves these texts
//! from its binary, and `scripts/web` copies the same files (`board/page/`)
//! into the static board. Each host adds its own `host.js`, the module
//! `index.html` loads before the page's: an empty one from the server
//! ([`NATIVE_HOST_JS`]), the API answered in the page for the static
//! board (`web/js/host.js`).
//!
//! The page's scripts are ES modules around one state object
//! (`state.js`): `index.html` loads `main.js`, which imports the others.
//! Modules load only over HTTP (a browser refuses them from `file://`),
//! as the static board's WebAssembly already does: either host is a
//! server, `splut gui` or any static file server (docs/web.md).

/// The page: the board, the panels and the scripts it loads.
pub const INDEX_HTML: &str = include_str!("../page/index.html");
/// The page's looks.
pub const STYLE_CSS: &str = include_str!("../page/style.css");
/// `host.js` where a server answers the API (`splut gui`): nothing to
/// load, the page calls the server with `fetch`.
pub const NATIVE_HOST_JS: &str =
    "// splut gui: the page's API is this server; the page fetches it.\nexport {};\n";

/// A module's content type: browsers run a module only with a script's.
const JS: &str = "text/javascript; charset=utf-8";

/// The page's files by name, with their content types: what a host serves
/// (its own `host.js` besides). `index.html` first.
pub const FILES: [(&str, &str, &str); 19] = [
    ("index.html", "text/html; charset=utf-8", INDEX_HTML),
    ("style.css", "text/css; charset=utf-8", STYLE_CSS),
    ("main.js", JS, include_str!("../page/main.js")),
    ("state.js", JS, include_str!("../page/state.js")),
    ("board.js", JS, include_str!("../page/board.js")),
    ("api.js", JS, include_str!("../page/api.js")),
    ("tables.js", JS, include_str!("../page/tables.js")),
    ("lobby.js", JS, include_str!("../page/lobby.js")),
    ("play.js", JS, include_str!("../page/play.js")),
    ("render.js", JS, include_str!("../page/render.js")),
    ("log.js", JS, include_str!("../page/log.js")),
    ("clocks.js", JS, include_str!("../page/clocks.js")),
    ("moves.js", JS, include_str!("../page/moves.js")),
    ("overlays.js", JS, include_str!("../page/overlays.js")),
    ("evaluation.js", JS, include_str!("../page/evaluation.js")),
    ("review.js", JS, include_str!("../page/review.js")),
    ("keep.js", JS, include_str!("../page/keep.js")),
    ("form.js", JS, include_str!("../page/form.js")),
    ("narrate.js", JS, include_str!("../page/narrate.js")),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_the_hosts_module_before_its_scripts() {
        let at = |s: &str| INDEX_HTML.find(s).unwrap_or(usize::MAX);
        let host = at("<script type=\"module\" src=\"host.js\">");
        let main = at("<script type=\"module\" src=\"main.js\">");
        assert!(host < main && main < usize::MAX);
        // Modules only: every script the page loads is one.
        let scripts = INDEX_HTML.matches("<script").count();
        assert_eq!(
            scripts,
            INDEX_HTML.matches("<script type=\"module\"").count()
        );
        assert_eq!(scripts, 2);
        assert!(at("style.css") < usize::MAX);
    }

    /// The names a module imports (`from "./x.js"`).
    fn imports(text: &str) -> Vec<&str> {
        text.lines()
            .filter(|l| l.starts_with("import "))
            .filter_map(|l| l.split("from \"./").nth(1)?.split('"').next())
            .collect()
    }

    /// Every module `main.js` reaches is a file of the page, every file
    /// of `board/page/` is served, and every module is reached: a file
    /// left out of [`FILES`] would be missing on both hosts.
    #[test]
    fn every_module_is_served_and_reached() {
        let text = |name: &str| FILES.iter().find(|f| f.0 == name).map(|f| f.2);
        let mut reached = vec!["main.js"];
        let mut i = 0;
        while i < reached.len() {
            let module = text(reached[i]).unwrap_or_else(|| panic!("{} is not served", reached[i]));
            for name in imports(module) {
                if !reached.contains(&name) {
                    reached.push(name);
                }
            }
            i += 1;
        }
        for (name, kind, _) in FILES {
            if name.ends_with(".js") {
                assert!(reached.contains(&name), "{name} is not imported");
                assert!(kind.starts_with("text/javascript"), "{name}: {kind}");
            }
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("page");
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            assert!(FILES.iter().any(|f| f.0 == name), "{name} is not served");
        }
    }

    /// No file of the page is over 600 lines: one concern a module.
    #[test]
    fn no_page_file_is_long() {
        for (name, _, text) in FILES {
            assert!(text.lines().count() <= 600, "{name}");
        }
    }

    /// No script of either host reads an SPN or splits one: every
    /// position comes with its board read by the rules (`crate::view`),
    /// and the page only draws it (issue 52).
    #[test]
    fn no_script_reads_an_spn() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut scripts: Vec<(String, String)> = FILES
            .iter()
            .filter(|f| f.0.ends_with(".js"))
            .map(|f| (f.0.to_string(), f.2.to_string()))
            .collect();
        let page = scripts.len();
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
        assert!(scripts.len() > page, "web/js not found");
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
