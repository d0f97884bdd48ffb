//! The process's memory use, for the 1 GiB contest limit: reported by the benches and, on
//! request, by the bot after every turn.

/// Peak resident memory of this process so far, in MiB (Linux; `None` elsewhere).
pub fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}
