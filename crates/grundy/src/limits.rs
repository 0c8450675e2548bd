//! Resource limits: how much memory a computation may take on this machine.
//!
//! Every command estimates the memory it will hold before allocating and refuses in one line
//! when it would not fit. The budget is the smaller of the memory the system has available
//! and the process limit (`ulimit -v`), halved to leave room for output and the rest of the
//! system. This is the library's one query of the system (a read of `/proc`).

/// Memory assumed when the system cannot tell (no `/proc/meminfo`).
const FALLBACK_MEMORY: u64 = 4 << 30;

/// Bytes of memory available to this process: the smaller of the system's available memory
/// (`MemAvailable`) and the address-space limit of the process (`RLIMIT_AS`, from
/// `/proc/self/limits`).
pub fn available_memory() -> u64 {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| kb.saturating_mul(1024))
        .unwrap_or(FALLBACK_MEMORY);
    system.min(address_space_limit().unwrap_or(u64::MAX))
}

/// The soft `RLIMIT_AS` of this process in bytes, when one is set.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    let soft = line.split_whitespace().nth(3)?;
    soft.parse().ok()
}

/// The memory budget of one computation: half of [`available_memory`].
pub fn memory_budget() -> u64 {
    available_memory() / 2
}

/// Refuses, in one line naming `what`, a computation that needs `need` bytes when the budget
/// is smaller.
pub fn check_memory(need: u64, what: &str) -> crate::Result<()> {
    let budget = memory_budget();
    if need > budget {
        return Err(crate::Error::Invalid(format!(
            "{what} needs about {} MiB, more than the {} MiB this machine can give it (half of what is available)",
            need >> 20,
            budget >> 20
        )));
    }
    Ok(())
}
