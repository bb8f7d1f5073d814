//! What the machine has: facts about the system the engine and the
//! tournament both need, read in one place.

/// Memory the system says is available, in MiB (Linux's `MemAvailable`;
/// `None` elsewhere or when it cannot be read).
pub fn available_mib() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The share of available memory hash tables may take, in percent: the
/// engine's check of one table and the tournament's check of all its
/// engines' tables use the same bound.
pub const TABLE_MEMORY_PERCENT: usize = 90;
