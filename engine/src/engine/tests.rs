//! The engine's options read as the search's settings, and the engine's
//! state across calls.

use super::*;
use crate::options::declarations;
use crate::search::Algorithm;
use crate::search::mcts::{MCTS, Parallel};

/// The settings `engine`'s next search would use.
fn settings(engine: &Engine) -> Settings {
    (*engine.state().settings).clone()
}

/// The size of `engine`'s table, `None` while it is not made.
fn table_mib(engine: &Engine) -> Option<usize> {
    engine.state().tt.as_ref().map(|tt| tt.mib())
}

/// `with_options` makes no table; the first `ready` makes it at the
/// `Hash` it is given (the last one, any case), the default 64 MiB
/// without one. A bad value is refused as `set_option` does.
#[test]
fn with_options_makes_the_table_at_its_hash() {
    let mib = |options: &[(&str, &str)]| {
        let e = Engine::with_options(options).unwrap();
        assert_eq!(table_mib(&e), None);
        e.ready().unwrap();
        table_mib(&e).unwrap()
    };
    assert_eq!(mib(&[("Hash", "16")]), 16);
    assert_eq!(mib(&[("hash", "2"), ("Threads", "1"), ("HASH", "4")]), 4);
    assert_eq!(mib(&[("Threads", "1")]), 64);
    assert_eq!(mib(&[]), 64);
    assert!(Engine::with_options(&[("Hash", "lots")]).is_err());
    assert!(Engine::with_options(&[("Hash", "0")]).is_err());
}

#[test]
fn set_option_checks_names_and_values_and_sets_the_search() {
    let e = Engine::new();
    e.set_option("hash", "16").unwrap();
    e.ready().unwrap();
    assert_eq!(table_mib(&e), Some(16));
    e.set_option("Algorithm", "MaxN").unwrap();
    assert_eq!(settings(&e).algorithm, Algorithm::MaxN);
    assert!(e.set_option("Threads", "0").is_err());
    assert!(e.set_option("Algorithm", "minimax").is_err());
    assert_eq!(settings(&e).algorithm, Algorithm::MaxN);
    e.set_option("MctsParallel", "root").unwrap();
    assert_eq!(settings(&e).mcts.parallel, Parallel::Root);
    assert!(e.set_option("MctsParallel", "leaf").is_err());
    e.set_option("MctsMinimax", "25").unwrap();
    assert_eq!(settings(&e).mcts.minimax_weight, 0.25);
    assert!(e.set_option("MctsMinimax", "101").is_err());
    e.set_option("MctsExploration", "141").unwrap();
    assert_eq!(settings(&e).mcts.exploration, 1.41);
    assert_eq!(settings(&e).multi_pv, 1);
    e.set_option("multipv", "8").unwrap();
    assert_eq!(settings(&e).multi_pv, 8);
    // `Ponder` is the check option UCI GUIs look for; it changes nothing.
    let before = settings(&e);
    e.set_option("Ponder", "true").unwrap();
    assert_eq!(settings(&e), before);
    assert_eq!(declarations().len(), 18);
    assert!(
        declarations()
            .iter()
            .any(|d| d.to_string() == "option name Ponder type check default false")
    );
}

#[test]
fn eval_file_multi_loads_a_network_for_3_4_seats_and_keeps_it_on_a_bad_file() {
    let dir = std::env::temp_dir().join(format!("splut-multi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("multi.nnue");
    let net = Network::pseudo_random(5, 300);
    std::fs::write(&file, net.to_bytes()).unwrap();
    let e = Engine::new();
    let shipped = default_multi_network();
    assert!(shipped.is_some(), "this build has one compiled in");
    assert_eq!(settings(&e).multi_net, shipped);
    e.set_option("EvalFileMulti", file.to_str().unwrap())
        .unwrap();
    assert_eq!(settings(&e).multi_net.as_deref(), Some(&net));
    // A file that is not a network is refused, naming the option, and the
    // network stays.
    let weights = dir.join("weights.txt");
    std::fs::write(&weights, "kill_now 100\n").unwrap();
    let err = e
        .set_option("EvalFileMulti", weights.to_str().unwrap())
        .unwrap_err();
    assert!(
        err.to_string().starts_with("option EvalFileMulti: "),
        "{err}"
    );
    assert_eq!(settings(&e).multi_net.as_deref(), Some(&net));
    assert_eq!(e.options().text(Id::EvalFileMulti), file.to_str().unwrap());
    e.set_option("EvalFileMulti", "default").unwrap();
    assert_eq!(settings(&e).multi_net, shipped);
    // `none`, in any case: the hand-written evaluation with 3–4 seats.
    e.set_option("EvalFileMulti", file.to_str().unwrap())
        .unwrap();
    e.set_option("EvalFileMulti", "None").unwrap();
    assert_eq!(settings(&e).multi_net, None);
    assert_eq!(e.options().text(Id::EvalFileMulti), "None");
    e.set_option("EvalFileMulti", "").unwrap();
    assert_eq!(settings(&e).multi_net, shipped);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn threads_are_kept_between_searches_and_follow_the_option() {
    let e = Engine::new();
    assert_eq!(e.state().workers.helpers(), 0);
    e.set_option("Threads", "2").unwrap();
    let helpers = 2.min(cores()) - 1;
    assert_eq!(e.state().workers.helpers(), helpers);
    e.set_option("Threads", "1").unwrap();
    assert_eq!(e.state().workers.helpers(), 0);
}

#[test]
fn strength_options_give_a_level() {
    let e = Engine::new();
    assert_eq!(settings(&e).skill, None);
    e.set_option("Skill Level", "5").unwrap();
    assert_eq!(settings(&e).skill.map(|s| s.level), Some(5.0));
    // UCI_Elo wins over Skill Level once UCI_LimitStrength is on.
    e.set_option("UCI_Elo", "1590").unwrap();
    assert_eq!(settings(&e).skill.map(|s| s.level), Some(5.0));
    e.set_option("UCI_LimitStrength", "true").unwrap();
    let level = settings(&e).skill.map(|s| s.level).unwrap();
    assert!((level - 15.0).abs() < 1e-9, "{level}");
    // Its top is the strongest limited level, not the full engine
    // (`UCI_LimitStrength` off, or `Skill Level` 20).
    e.set_option("UCI_Elo", &crate::options::ELO_MAX.to_string())
        .unwrap();
    assert_eq!(settings(&e).skill.map(|s| s.level), Some(19.0));
    e.set_option("UCI_LimitStrength", "false").unwrap();
    e.set_option("Skill Level", "20").unwrap();
    assert_eq!(settings(&e).skill, None);
    assert!(e.set_option("Skill Level", "21").is_err());
    assert!(!e.options().check(Id::ShowWinProb));
    e.set_option("UCI_ShowWinProb", "true").unwrap();
    assert!(e.options().check(Id::ShowWinProb));
}

#[test]
fn the_table_mirrors_the_search() {
    // Defaults: the table's numbers are the search's.
    let d = settings(&Engine::new());
    assert_eq!(d, Settings::default());
    assert_eq!(d.mcts, MCTS);
    assert_eq!(d.algorithm, Algorithm::Auto);
    assert_eq!(
        (d.threads, d.move_overhead, d.seed, d.tree_mib, d.multi_pv),
        (1, 30, 0, 64, 1)
    );
    // Every algorithm by its name, in the search's order.
    assert_eq!(
        crate::options::ALGORITHMS.to_vec(),
        Algorithm::ALL.map(|a| a.name()).to_vec()
    );
    for a in Algorithm::ALL {
        let e = Engine::new();
        e.set_option("Algorithm", a.name()).unwrap();
        assert_eq!(settings(&e).algorithm, a);
    }
}

#[test]
fn a_prepared_search_holds_the_engine_until_it_has_run() {
    let e = Engine::new();
    let game = Game::new(Position::start(2).unwrap());
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let mut search = e.prepare(&game, &limits).unwrap();
    assert!(e.is_searching());
    assert!(matches!(e.set_option("Hash", "8"), Err(EngineError::Busy)));
    // A stop sent before the search runs is not lost.
    e.stop();
    assert!(search.stop_requested());
    let report = search.run(&mut |_| {});
    assert!(e.is_searching(), "until the search is dropped");
    drop(search);
    assert!(!e.is_searching());
    assert_eq!(report.turn.len(), 1);
    assert_eq!(report.win_probabilities.len(), 2);
    let sum: f64 = report.win_probabilities.iter().map(|(_, p)| p).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    // A prepared search that is dropped unrun frees the engine too.
    drop(e.prepare(&game, &limits).unwrap());
    assert!(!e.is_searching());
    // Pondering: the hit is taken once, while the search runs.
    assert!(!e.ponderhit());
    let pondering = Limits {
        ponder: true,
        depth: Some(2),
        ..Limits::default()
    };
    let search = e.prepare(&game, &pondering).unwrap();
    assert!(e.ponderhit());
    assert!(!e.ponderhit());
    assert!(search.ponder().is_some_and(|p| p.hit_at().is_some()));
}

/// The table is made when first needed, as Stockfish does: not by `new`
/// or `Hash` (which drops it), but by `ready`, `new_game` or a search,
/// whichever comes first, at the `Hash` set last; once made it is kept.
#[test]
fn the_table_is_made_when_first_needed() {
    let e = Engine::new();
    assert_eq!(table_mib(&e), None);
    e.set_option("Hash", "2").unwrap();
    e.set_option("Hash", "3").unwrap();
    assert_eq!(table_mib(&e), None);
    e.ready().unwrap();
    assert_eq!(table_mib(&e), Some(3));
    let made = e.state().tt.clone().unwrap();
    e.ready().unwrap();
    e.set_option("Threads", "1").unwrap();
    assert!(Arc::ptr_eq(e.state().tt.as_ref().unwrap(), &made));
    e.set_option("Hash", "1").unwrap();
    assert_eq!(table_mib(&e), None);
    e.new_game().unwrap();
    assert_eq!(table_mib(&e), Some(1));

    let e = Engine::with_options(&[("Hash", "2")]).unwrap();
    let game = Game::new(Position::start(2).unwrap());
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    e.go(&game, &limits, |_| {}).unwrap();
    assert_eq!(table_mib(&e), Some(2));
}

/// A `Hash` the machine cannot give is refused at once, as before the
/// table was made lazily: the error names the size kept, and the value
/// and the table made stay as they were.
#[test]
fn a_hash_that_does_not_fit_is_refused_and_changes_nothing() {
    let e = Engine::with_options(&[("Hash", "2")]).unwrap();
    e.ready().unwrap();
    let too_much = crate::options::HASH_MAX as usize;
    let refused = TranspositionTable::fits(too_much, 2).is_err();
    match e.set_option("Hash", &too_much.to_string()) {
        Err(EngineError::Hash { kept_mib, .. }) => {
            assert!(refused);
            assert_eq!(kept_mib, 2);
            assert_eq!(e.options().spin(Id::Hash), 2);
            assert_eq!(table_mib(&e), Some(2));
        }
        Ok(()) => assert!(!refused, "a size that does not fit was taken"),
        Err(other) => panic!("unexpected error {other}"),
    }
}
