use super::*;

fn game(id: u64) -> NewGame {
    NewGame {
        id,
        start: "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -".into(),
        seats: r#"[{"seat":"r","engine":false}]"#.into(),
        pace: "normal".into(),
        created: 1_700_000_000 + id as i64,
        access: format!(r#"{{"host":"h{id}"}}"#),
    }
}

fn steps(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

/// A fresh file in the temp dir, none there yet.
fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("splut-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    for ext in ["", "-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(format!("{}{ext}", p.display()));
    }
    p
}

#[test]
fn games_and_steps_round_trip() {
    let db = Sqlite::open(None).unwrap();
    assert_eq!(db.highest_id().unwrap(), 0);
    db.create(&game(3)).unwrap();
    db.append(3, 0, &steps(&["e2e3"])).unwrap();
    db.append(3, 1, &steps(&["e8e7", "d8d7"])).unwrap();
    let g = db.game(3).unwrap().unwrap();
    assert_eq!(g.game, game(3));
    assert_eq!(g.steps, steps(&["e2e3", "e8e7", "d8d7"]));
    assert_eq!(g.status, Status::Playing);
    assert_eq!(db.game(4).unwrap(), None);
    assert_eq!(db.highest_id().unwrap(), 3);
    // A step at an index already kept is refused, all or none.
    assert!(db.append(3, 2, &steps(&["x", "y"])).is_err());
    assert_eq!(db.game(3).unwrap().unwrap().steps.len(), 3);
    // The same id twice is refused.
    assert!(db.create(&game(3)).is_err());
}

#[test]
fn take_backs_delete_the_steps_above_and_reopen_a_finished_game() {
    let db = Sqlite::open(None).unwrap();
    db.create(&game(1)).unwrap();
    db.append(1, 0, &steps(&["a", "b", "c", "d"])).unwrap();
    let done = Status::Finished {
        result: "r > g".into(),
        at: 5,
    };
    db.end(1, &done).unwrap();
    assert_eq!(db.game(1).unwrap().unwrap().status, done);
    assert_eq!(db.finished(None, 50).unwrap().len(), 1);
    db.take_back(1, 1).unwrap();
    let g = db.game(1).unwrap().unwrap();
    assert_eq!(g.steps, steps(&["a"]));
    assert_eq!(g.status, Status::Playing);
    assert!(db.finished(None, 50).unwrap().is_empty());
    db.append(1, 1, &steps(&["b2"])).unwrap();
    assert_eq!(db.game(1).unwrap().unwrap().steps, steps(&["a", "b2"]));
}

#[test]
fn unfinished_games_are_listed_for_resume() {
    let db = Sqlite::open(None).unwrap();
    for id in 1..=4 {
        db.create(&game(id)).unwrap();
        db.append(id, 0, &steps(&["s"])).unwrap();
    }
    db.end(
        2,
        &Status::Finished {
            result: "g > r".into(),
            at: 9,
        },
    )
    .unwrap();
    db.end(3, &Status::Abandoned { at: 10 }).unwrap();
    // Abandoning a finished game leaves it finished.
    db.end(2, &Status::Abandoned { at: 11 }).unwrap();
    let ids = |v: Vec<StoredGame>| v.into_iter().map(|g| g.game.id).collect::<Vec<_>>();
    assert_eq!(ids(db.unfinished().unwrap()), vec![1, 4]);
    assert_eq!(db.finished(None, 50).unwrap()[0].id, 2);
    assert_eq!(db.unfinished().unwrap()[0].steps, steps(&["s"]));
    assert_eq!(
        db.game(3).unwrap().unwrap().status,
        Status::Abandoned { at: 10 }
    );
}

#[test]
fn a_file_keeps_its_games_across_opens() {
    let path = temp_file("kept.db");
    {
        let db = Sqlite::open(Some(&path)).unwrap();
        db.create(&game(7)).unwrap();
        db.append(7, 0, &steps(&["e2e3"])).unwrap();
        // A second server on the same file is refused while this one runs.
        let second = Sqlite::open(Some(&path));
        assert!(second.is_err());
    }
    let db = Sqlite::open(Some(&path)).unwrap();
    let g = db.unfinished().unwrap();
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].steps, steps(&["e2e3"]));
    assert_eq!(db.highest_id().unwrap(), 7);
}

#[test]
fn foreign_and_corrupt_files_are_refused_and_left_alone() {
    let text = temp_file("notes.txt");
    let words = "these are not the games you are looking for\n".repeat(200);
    std::fs::write(&text, &words).unwrap();
    let e = Sqlite::open(Some(&text)).err().unwrap();
    assert!(e.0.contains("notes.txt"), "{e}");
    assert_eq!(std::fs::read_to_string(&text).unwrap(), words);

    // Another program's SQLite database.
    let other = temp_file("other.db");
    {
        let c = Connection::open(&other).unwrap();
        c.execute_batch("CREATE TABLE birds (name TEXT); INSERT INTO birds VALUES ('owl');")
            .unwrap();
    }
    let before = std::fs::read(&other).unwrap();
    let e = Sqlite::open(Some(&other)).err().unwrap();
    assert!(e.0.contains("not a splut gui database"), "{e}");
    assert_eq!(std::fs::read(&other).unwrap(), before);

    // Ours, with a newer schema.
    let newer = temp_file("newer.db");
    drop(Sqlite::open(Some(&newer)).unwrap());
    {
        let c = Connection::open(&newer).unwrap();
        c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
    }
    let e = Sqlite::open(Some(&newer)).err().unwrap();
    assert!(e.0.contains("newer"), "{e}");

    // A database cut short: a header and garbage.
    let cut = temp_file("cut.db");
    let mut bytes = b"SQLite format 3\0".to_vec();
    bytes.extend((0..5000u32).map(|i| (i * 7919 % 251) as u8));
    std::fs::write(&cut, &bytes).unwrap();
    assert!(Sqlite::open(Some(&cut)).is_err());
}

#[test]
fn seats_and_tokens_are_kept_anew() {
    let db = Sqlite::open(None).unwrap();
    db.create(&game(5)).unwrap();
    db.set_seats(5, r#"[{"seat":"r","name":"Ann"}]"#).unwrap();
    db.set_access(5, r#"{"host":"x"}"#).unwrap();
    let g = db.game(5).unwrap().unwrap();
    assert_eq!(g.game.seats, r#"[{"seat":"r","name":"Ann"}]"#);
    assert_eq!(g.game.access, r#"{"host":"x"}"#);
}

#[test]
fn a_version_1_file_is_brought_up_to_date_with_its_games() {
    let path = temp_file("v1.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(&format!(
            "CREATE TABLE games (id INTEGER PRIMARY KEY, start TEXT NOT NULL,
               seats TEXT NOT NULL, pace TEXT NOT NULL, created INTEGER NOT NULL,
               status TEXT NOT NULL DEFAULT 'playing', result TEXT, ended INTEGER);
             CREATE TABLE steps (game INTEGER NOT NULL, idx INTEGER NOT NULL,
               step TEXT NOT NULL, PRIMARY KEY (game, idx)) WITHOUT ROWID;
             INSERT INTO games (id, start, seats, pace, created)
               VALUES (7, 'R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -', '[]', 'normal', 1);
             INSERT INTO steps VALUES (7, 0, 'e2e3');
             PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = 1;"
        ))
        .unwrap();
    }
    let db = Sqlite::open(Some(&path)).unwrap();
    let g = db.game(7).unwrap().unwrap();
    assert_eq!(g.steps, steps(&["e2e3"]));
    assert_eq!(g.game.access, "", "a game from before tables has no tokens");
    db.set_access(7, "{}").unwrap();
    drop(db);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
}

#[test]
fn writers_at_once_share_one_sync_and_every_write_is_kept() {
    let path = temp_file("group.db");
    let db = std::sync::Arc::new(Sqlite::open(Some(&path)).unwrap());
    for id in 1..=6 {
        db.create(&game(id)).unwrap();
    }
    let before = db.syncs.load(Ordering::SeqCst);
    let all = db.commits.load(Ordering::SeqCst) + 6;
    // A sync under way: the writers commit, then wait behind it.
    let held = db.synced.lock().unwrap();
    let writers: Vec<_> = (1..=6)
        .map(|id| {
            let db = db.clone();
            std::thread::spawn(move || db.append(id, 0, &steps(&["e2e3", "e8e7"])))
        })
        .collect();
    while db.commits.load(Ordering::SeqCst) < all {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    drop(held);
    for w in writers {
        w.join().unwrap().unwrap();
    }
    // The first writer's sync covered the other five's commits.
    assert_eq!(db.syncs.load(Ordering::SeqCst), before + 1);
    drop(db);
    let db = Sqlite::open(Some(&path)).unwrap();
    for id in 1..=6 {
        assert_eq!(
            db.game(id).unwrap().unwrap().steps,
            steps(&["e2e3", "e8e7"])
        );
    }
}

#[test]
fn a_database_in_memory_syncs_nothing() {
    let db = Sqlite::open(None).unwrap();
    db.create(&game(1)).unwrap();
    db.append(1, 0, &steps(&["a"])).unwrap();
    assert_eq!(db.syncs.load(Ordering::SeqCst), 0);
    assert_eq!(db.commits.load(Ordering::SeqCst), 2);
}

#[test]
fn the_history_is_read_a_page_at_a_time_with_step_counts_only() {
    let db = Sqlite::open(None).unwrap();
    for id in 1..=7 {
        db.create(&game(id)).unwrap();
        let n = id as usize;
        let s: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
        db.append(id, 0, &s).unwrap();
        if id != 4 {
            let at = 100 - id as i64;
            db.end(
                id,
                &Status::Finished {
                    result: "r > g".into(),
                    at,
                },
            )
            .unwrap();
        }
    }
    let ids = |v: Vec<FinishedGame>| v.into_iter().map(|g| g.id).collect::<Vec<_>>();
    // Newest first, the unfinished game 4 not among them.
    assert_eq!(ids(db.finished(None, 3).unwrap()), vec![7, 6, 5]);
    assert_eq!(ids(db.finished(Some(5), 3).unwrap()), vec![3, 2, 1]);
    assert_eq!(ids(db.finished(Some(1), 3).unwrap()), Vec::<u64>::new());
    assert_eq!(ids(db.finished(Some(u64::MAX), 2).unwrap()), vec![7, 6]);
    assert!(db.finished(None, 0).unwrap().is_empty());
    let g = &db.finished(Some(7), 1).unwrap()[0];
    assert_eq!(
        *g,
        FinishedGame {
            id: 6,
            created: 1_700_000_006,
            ended: 94,
            result: "r > g".into(),
            seats: game(6).seats,
            steps: 6,
        }
    );
}

#[test]
fn told_not_to_sync_a_file_keeps_its_writes_unsynced() {
    let path = temp_file("os.db");
    let db = Sqlite::open(Some(&path)).unwrap().syncing(false);
    db.create(&game(1)).unwrap();
    db.append(1, 0, &steps(&["e2e3"])).unwrap();
    assert_eq!(db.syncs.load(Ordering::SeqCst), 0);
    drop(db);
    let db = Sqlite::open(Some(&path)).unwrap();
    assert_eq!(db.game(1).unwrap().unwrap().steps, steps(&["e2e3"]));
    db.append(1, 1, &steps(&["e8e7"])).unwrap();
    assert_eq!(db.syncs.load(Ordering::SeqCst), 1, "syncing is the default");
}
