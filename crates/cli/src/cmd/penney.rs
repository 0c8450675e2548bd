//! `grundy penney`: pattern races (Penney's game) — exact odds, durations, best replies.

use crate::common::{print_json, print_out, progress_bar, CliError, CliResult};
use grundy_penney::dashu::base::BitTest;
use grundy_penney::dashu::integer::{IBig, UBig};
use grundy_penney::dashu::rational::RBig;
use grundy_penney::game::{self, ReplySearch};
use grundy_penney::{
    chain, conway, correlation, correlation_system, simulate, Alphabet, PenneyError, Race,
};
use serde_json::{json, Value};

/// Most transient states the exact Markov chain is solved for.
const CHAIN_LIMIT: usize = 20_000;
/// Most `states × (patterns + 1)² × (1 + longest/64)` for the chain (about a second); beyond
/// it only the correlation system (and Conway) run, without variance and conditional lengths.
const CHAIN_WORK_LIMIT: usize = 500_000;
/// Most candidates for an exhaustive best-reply search.
const REPLY_LIMIT: usize = 1 << 14;
/// Most patterns of one length for `--best-first` (it evaluates all pairs).
const FIRST_LIMIT: usize = 512;
/// Most patterns of one length for `--table`.
const TABLE_LIMIT: usize = 64;
/// Most tosses for `--distribution`, and most distribution steps × states.
const DIST_LIMIT: usize = 10_000;
const DIST_WORK_LIMIT: usize = 20_000_000;
/// Most tosses a simulation may make in total.
const SIM_TOSS_LIMIT: u64 = 2_000_000_000;
/// Longest exact fraction printed in text mode (longer ones: decimal and digit count).
const TEXT_FRACTION_LIMIT: usize = 60;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy penney HTH THH                     who comes first, odds, expected tosses
  grundy penney HHH HTH TTH --distribution 10
  grundy penney --alphabet 123456 666 123   a die
  grundy penney --prob H=2/3,T=1/3 HHH THH  a biased coin (exact fractions)
  grundy penney ABRACADABRA --alphabet ABCDEFGHIJKLMNOPQRSTUVWXYZ
  grundy penney --best-reply HHTH           the second player's best answer
  grundy penney --best-first 4              the first player's best pattern of length 4
  grundy penney --table 3                   P(column beats row) for all pairs of length 3
  grundy penney --cycle 3                   a non-transitive cycle
  grundy penney HTH THH --simulate 1000000 --seed 7 --json")]
pub struct Args {
    /// Patterns racing to appear first (one pattern: its waiting time).
    patterns: Vec<String>,
    /// The symbols tossed, equally likely unless --prob is given (default: the coin HT).
    #[arg(long, allow_hyphen_values = true)]
    alphabet: Option<String>,
    /// Exact letter probabilities, e.g. H=2/3,T=1/3 (fractions or decimals, summing to 1).
    #[arg(long, allow_hyphen_values = true)]
    prob: Option<String>,
    /// Best reply to this pattern among all patterns of the same length.
    #[arg(long, value_name = "PATTERN", allow_hyphen_values = true)]
    best_reply: Option<String>,
    /// The first player's best pattern of this length and the chance it guarantees.
    #[arg(long, value_name = "LENGTH", allow_hyphen_values = true)]
    best_first: Option<String>,
    /// Table of P(column pattern appears before row pattern) for all patterns of this length.
    #[arg(long, value_name = "LENGTH", allow_hyphen_values = true)]
    table: Option<String>,
    /// A non-transitive cycle of patterns of this length.
    #[arg(long, value_name = "LENGTH", allow_hyphen_values = true)]
    cycle: Option<String>,
    /// Probability that the race ends exactly at toss n, for n = 1..K.
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    distribution: Option<String>,
    /// Also simulate this many races and show the simulated numbers beside the exact ones.
    #[arg(long, value_name = "TRIALS", allow_hyphen_values = true)]
    simulate: Option<String>,
    /// Seed of the simulation's random generator.
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    seed: String,
    /// Print one JSON object (exact fractions as strings, plus decimals).
    #[arg(long)]
    json: bool,
}

fn usage(e: PenneyError) -> CliError {
    CliError::usage(e.to_string())
}

fn parse_count(flag: &str, text: &str, max: u64) -> Result<u64, CliError> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(CliError::usage(format!("{flag}: negative number '{text}'")));
    }
    let n: u64 = t
        .parse()
        .map_err(|_| CliError::usage(format!("{flag}: not a number '{text}'")))?;
    if n > max {
        return Err(CliError::usage(format!(
            "{flag}: '{text}' is more than the limit {max}"
        )));
    }
    Ok(n)
}

fn parse_length(flag: &str, text: &str) -> Result<usize, CliError> {
    let n = parse_count(flag, text, 64)?;
    if n == 0 {
        return Err(CliError::usage(format!(
            "{flag}: length must be at least 1, got '{text}'"
        )));
    }
    Ok(n as usize)
}

fn alphabet(args: &Args) -> Result<Alphabet, CliError> {
    match (&args.alphabet, &args.prob) {
        (None, None) => Ok(Alphabet::coin()),
        (Some(a), None) => Alphabet::uniform(a).map_err(usage),
        (None, Some(p)) => Alphabet::parse_probabilities(p).map_err(usage),
        (Some(a), Some(p)) => {
            let al = Alphabet::parse_probabilities(p).map_err(usage)?;
            let mut given: Vec<char> = a.chars().collect();
            let mut probs: Vec<char> = al.symbols().to_vec();
            given.sort_unstable();
            probs.sort_unstable();
            if given != probs {
                return Err(CliError::usage(format!(
                    "--prob gives the symbols '{}' but --alphabet is '{a}'",
                    al.symbols_string()
                )));
            }
            // Keep the order of --alphabet.
            let ordered = a
                .chars()
                .map(|c| {
                    al.prob(al.symbols().iter().position(|&s| s == c).unwrap_or(0))
                        .clone()
                })
                .collect();
            Alphabet::with_probabilities(a, ordered).map_err(usage)
        }
    }
}

/// A decimal rendering of an exact value: ordinary when it fits an f64, scientific otherwise.
fn decimal(x: &RBig) -> String {
    let f = x.to_f64().value();
    if f == 0.0 && x.is_zero() {
        return "0".into();
    }
    if f.is_finite() && f != 0.0 && f.abs() >= 1e-300 {
        let a = f.abs();
        return if (1e-4..1e15).contains(&a) {
            let s = format!("{f:.10}");
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            format!("{f:.9e}")
        };
    }
    // Huge or tiny: exponent from bit lengths, then 17 significant digits by integer division.
    let (num, den) = (x.numerator().clone(), x.denominator().clone());
    let negative = num < IBig::ZERO;
    let num = UBig::try_from(if negative { -num } else { num }).unwrap_or_default();
    let bits = num.bit_len() as i64 - den.bit_len() as i64;
    let mut e = (bits as f64 * std::f64::consts::LOG10_2).floor() as i64;
    let ten = UBig::from(10u8);
    let digits = |e: i64| -> UBig {
        let shift = 17 - e;
        if shift >= 0 {
            &num * ten.pow(shift as usize) / &den
        } else {
            &num / (&den * ten.pow((-shift) as usize))
        }
    };
    let mut d = digits(e);
    while d >= ten.pow(18) {
        e += 1;
        d = digits(e);
    }
    while d < ten.pow(17) && d > UBig::ZERO {
        e -= 1;
        d = digits(e);
    }
    let s = d.to_string();
    format!(
        "{}{}.{}e{}",
        if negative { "-" } else { "" },
        &s[..1],
        &s[1..10],
        e
    )
}

/// JSON decimal: a number when it fits an f64, otherwise the scientific string.
fn json_decimal(x: &RBig) -> Value {
    let f = x.to_f64().value();
    if f.is_finite() && (f != 0.0 || x.is_zero()) {
        json!(f)
    } else {
        json!(decimal(x))
    }
}

/// Exact fraction in text mode, abbreviated when it is very long.
fn frac(x: &RBig) -> String {
    let s = x.to_string();
    if s.len() <= TEXT_FRACTION_LIMIT {
        s
    } else {
        format!("[{}-character fraction, see --json]", s.len())
    }
}

pub fn run(args: Args) -> CliResult {
    let modes = [
        !args.patterns.is_empty(),
        args.best_reply.is_some(),
        args.best_first.is_some(),
        args.table.is_some(),
        args.cycle.is_some(),
    ];
    match modes.iter().filter(|&&m| m).count() {
        0 => {
            return Err(CliError::usage(
                "give patterns, or one of --best-reply, --best-first, --table, --cycle",
            ))
        }
        1 => {}
        _ => {
            return Err(CliError::usage(
                "use only one of: patterns, --best-reply, --best-first, --table, --cycle",
            ))
        }
    }
    if args.patterns.is_empty() && (args.simulate.is_some() || args.distribution.is_some()) {
        return Err(CliError::usage(
            "--simulate and --distribution need patterns to race",
        ));
    }
    let al = alphabet(&args)?;
    if let Some(p) = &args.best_reply {
        return best_reply(&args, &al, p);
    }
    if let Some(m) = &args.best_first {
        return best_first(&args, &al, parse_length("--best-first", m)?);
    }
    if let Some(m) = &args.table {
        return table(&args, &al, parse_length("--table", m)?);
    }
    if let Some(m) = &args.cycle {
        return cycle(&args, &al, parse_length("--cycle", m)?);
    }
    race(&args, al)
}

/// Most patterns in one race (the exact correlation system is cubic in their number).
const MAX_PATTERNS: usize = 200;

fn race(args: &Args, al: Alphabet) -> CliResult {
    if args.patterns.len() > MAX_PATTERNS {
        return Err(CliError::usage(format!(
            "{} patterns is more than the limit {MAX_PATTERNS}",
            args.patterns.len()
        )));
    }
    let race = Race::new(al, &args.patterns).map_err(usage)?;
    let al = race.alphabet();
    let dist_k = match &args.distribution {
        Some(k) => parse_count("--distribution", k, DIST_LIMIT as u64)? as usize,
        None => 0,
    };
    let trials = match &args.simulate {
        Some(t) => Some(parse_count("--simulate", t, 1_000_000_000)?),
        None => None,
    };
    let seed = parse_count("--seed", &args.seed, u64::MAX)?;

    // Method 1: correlation system (always).
    let sys = correlation_system::solve(&race).map_err(|e| CliError::failure(e.to_string()))?;
    // Method 2: the Markov chain when small enough.
    let states = chain::state_count(&race);
    let k1 = race.active().len() + 1;
    let longest = race.words().iter().map(Vec::len).max().unwrap_or(1);
    let chain_ok = states <= CHAIN_LIMIT
        && states
            .saturating_mul(k1 * k1)
            .saturating_mul(1 + longest / 64)
            <= CHAIN_WORK_LIMIT;
    let ch = if chain_ok {
        Some(chain::solve(&race, CHAIN_LIMIT).map_err(|e| CliError::failure(e.to_string()))?)
    } else {
        None
    };
    // Method 3: Conway for two patterns that can both win.
    let conway_res = if race.len() == 2 && race.active().len() == 2 {
        Some(
            conway::conway(al, race.word(0), race.word(1))
                .map_err(|e| CliError::failure(e.to_string()))?,
        )
    } else {
        None
    };
    if let Some(c) = &ch {
        if c.win != sys.win || c.expected != sys.expected {
            return Err(CliError::failure(
                "internal error: Markov chain and correlation system disagree",
            ));
        }
    }
    if let Some(c) = &conway_res {
        if c.prob_b_first != sys.win[1] || c.expected != sys.expected {
            return Err(CliError::failure(
                "internal error: Conway and correlation system disagree",
            ));
        }
    }
    let variance = match (&ch, race.len()) {
        (Some(c), _) => Some(c.variance.clone()),
        (None, 1) => Some(correlation::waiting_time_variance(al, race.word(0))),
        _ => None,
    };
    if dist_k > 0 && dist_k.saturating_mul(states.max(1)) > DIST_WORK_LIMIT {
        return Err(CliError::usage(format!(
            "--distribution {dist_k} with {states} automaton states is too much work (limit {DIST_WORK_LIMIT} steps × states)"
        )));
    }
    let dist = if dist_k > 0 {
        chain::length_distribution(&race, dist_k)
    } else {
        Vec::new()
    };
    let sim = match trials {
        Some(t) => {
            if let Some(e) = sys
                .expected
                .to_f64()
                .value()
                .is_finite()
                .then(|| sys.expected.to_f64().value())
            {
                if e * t as f64 > SIM_TOSS_LIMIT as f64 {
                    return Err(CliError::usage(format!(
                        "--simulate {t}: about {:.3e} tosses expected, more than the limit {SIM_TOSS_LIMIT}",
                        e * t as f64
                    )));
                }
            } else {
                return Err(CliError::usage(format!(
                    "--simulate {t}: races are far too long to simulate"
                )));
            }
            let bar = progress_bar(t, "simulating");
            let s = simulate::simulate(&race, t, seed, SIM_TOSS_LIMIT, &mut |done| {
                bar.set_position(done)
            })
            .map_err(usage)?;
            bar.finish_and_clear();
            Some(s)
        }
        None => None,
    };

    let methods = {
        let mut m = vec!["correlation system"];
        if ch.is_some() {
            m.push("Markov chain");
        }
        if conway_res.is_some() {
            m.push("Conway");
        }
        m
    };

    if args.json {
        let patterns: Vec<Value> = (0..race.len())
            .map(|i| {
                let mut o = json!({
                    "pattern": race.text(i),
                    "win": sys.win[i].to_string(),
                    "win_decimal": json_decimal(&sys.win[i]),
                    "can_win": race.blocked_by(i).is_none(),
                    "contains": race.blocked_by(i).map(|j| race.text(j).to_string()),
                    "waiting_time": correlation::waiting_time(al, race.word(i)).to_string(),
                });
                if let Some(c) = &ch {
                    o["expected_given_win"] = c.expected_given_winner[i]
                        .as_ref()
                        .map_or(Value::Null, |e| json!(e.to_string()));
                }
                if let Some(s) = &sim {
                    o["simulated_wins"] = json!(s.wins[i]);
                    o["simulated_win_decimal"] = json!(s.wins[i] as f64 / s.trials.max(1) as f64);
                }
                o
            })
            .collect();
        let mut out = json!({
            "alphabet": al.symbols_string(),
            "letter_probabilities": al.symbols().iter().zip(al.probs()).map(|(c, p)| (c.to_string(), json!(p.to_string()))).collect::<serde_json::Map<_, _>>(),
            "patterns": patterns,
            "expected_tosses": sys.expected.to_string(),
            "expected_tosses_decimal": json_decimal(&sys.expected),
            "variance": variance.as_ref().map(|v| json!(v.to_string())),
            "variance_decimal": variance.as_ref().map(json_decimal),
            "methods_agreeing": methods,
            "chain_states": states,
        });
        if let Some(c) = &conway_res {
            let bits = conway::leading_bits(race.word(0), race.word(1));
            out["conway"] = json!({
                "a": race.text(0), "b": race.text(1),
                "leading_numbers": {"AA": bits[0], "AB": bits[1], "BB": bits[2], "BA": bits[3]},
                "weighted": {"AA": c.leading.aa.to_string(), "AB": c.leading.ab.to_string(),
                             "BB": c.leading.bb.to_string(), "BA": c.leading.ba.to_string()},
                "odds_b_to_a": format!("{}:{}", c.odds.0, c.odds.1),
                "prob_b_first": c.prob_b_first.to_string(),
            });
        }
        if !dist.is_empty() {
            out["distribution"] = json!(dist
                .iter()
                .enumerate()
                .map(|(n, row)| {
                    let total = row.iter().fold(RBig::ZERO, |a, x| a + x);
                    json!({"n": n + 1, "prob": total.to_string(), "decimal": json_decimal(&total),
                           "by_pattern": row.iter().map(|x| x.to_string()).collect::<Vec<_>>()})
                })
                .collect::<Vec<_>>());
        }
        if let Some(s) = &sim {
            out["simulation"] = json!({"trials": s.trials, "seed": seed, "wins": s.wins,
                "mean_length": s.mean_length, "variance": s.variance});
        }
        return print_json(&out);
    }

    let mut t = String::new();
    let probs: Vec<String> = al
        .symbols()
        .iter()
        .zip(al.probs())
        .map(|(c, p)| format!("{c}={p}"))
        .collect();
    t.push_str(&format!(
        "{} over {} ({})\n",
        if race.len() == 1 {
            "Waiting time".to_string()
        } else {
            format!("Race of {} patterns", race.len())
        },
        al.symbols_string(),
        if al.is_uniform() {
            format!("each {}", al.prob(0))
        } else {
            probs.join(", ")
        }
    ));
    let width = race
        .texts()
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(1)
        .clamp(7, 40);
    t.push_str(&format!(
        "{:<width$}  {:<16} {:<12}",
        "pattern", "P(first)", "decimal"
    ));
    if ch.is_some() {
        t.push_str("  E[N | wins]");
    }
    if sim.is_some() {
        t.push_str("  simulated");
    }
    t.push('\n');
    for i in 0..race.len() {
        t.push_str(&format!(
            "{:<width$}  {:<16} {:<12}",
            race.text(i),
            frac(&sys.win[i]),
            decimal(&sys.win[i])
        ));
        if let Some(c) = &ch {
            let e = c.expected_given_winner[i]
                .as_ref()
                .map_or("-".to_string(), |e| format!("{} ({})", frac(e), decimal(e)));
            t.push_str(&format!("  {e}"));
        }
        if let Some(s) = &sim {
            t.push_str(&format!(
                "  {:.6}",
                s.wins[i] as f64 / s.trials.max(1) as f64
            ));
        }
        if let Some(j) = race.blocked_by(i) {
            t.push_str(&format!("  (contains {}, can never win)", race.text(j)));
        }
        t.push('\n');
    }
    t.push_str(&format!(
        "E[N] = {} ({})",
        frac(&sys.expected),
        decimal(&sys.expected)
    ));
    if let Some(v) = &variance {
        t.push_str(&format!("   Var[N] = {} ({})", frac(v), decimal(v)));
    }
    if let Some(s) = &sim {
        t.push_str(&format!(
            "\nsimulated: {} races, seed {seed}: mean {:.6}, variance {:.6}",
            s.trials, s.mean_length, s.variance
        ));
    }
    t.push('\n');
    if let Some(c) = &conway_res {
        let bits = conway::leading_bits(race.word(0), race.word(1));
        let short = |b: &str| {
            if b.len() > 40 {
                format!("{}… ({} bits)", &b[..40], b.len())
            } else {
                b.to_string()
            }
        };
        t.push_str(&format!(
            "Conway (A = {}, B = {}): AA={} AB={} BB={} BA={}; odds B:A = {}:{}\n",
            race.text(0),
            race.text(1),
            short(&bits[0]),
            short(&bits[1]),
            short(&bits[2]),
            short(&bits[3]),
            frac(&RBig::from(c.odds.0.clone())),
            frac(&RBig::from(c.odds.1.clone()))
        ));
    }
    t.push_str(&format!("Exact methods agreeing: {}", methods.join(", ")));
    if ch.is_none() {
        t.push_str(&format!(
            " (Markov chain skipped: {states} states, {k1} unknowns per state, too slow)"
        ));
    }
    t.push('\n');
    if !dist.is_empty() {
        t.push_str("n  P(race ends at toss n)\n");
        for (n, row) in dist.iter().enumerate() {
            let total = row.iter().fold(RBig::ZERO, |a, x| a + x);
            t.push_str(&format!(
                "{} {} ({})\n",
                n + 1,
                frac(&total),
                decimal(&total)
            ));
        }
    }
    print_out(&t)
}

fn best_reply(args: &Args, al: &Alphabet, pattern: &str) -> CliResult {
    let w = al.encode(pattern).map_err(usage)?;
    let r = game::best_reply(al, &w, REPLY_LIMIT).map_err(usage)?;
    let search = match r.search {
        ReplySearch::Exhaustive => format!(
            "exhaustive over all {} other patterns of length {}",
            r.candidates,
            w.len()
        ),
        ReplySearch::Family => format!(
            "the family x·{} ({} candidates)",
            al.decode(&w[..w.len() - 1]),
            r.candidates
        ),
    };
    if args.json {
        return print_json(&json!({
            "pattern": pattern,
            "best_reply": al.decode(&r.reply),
            "win": r.prob.to_string(),
            "win_decimal": json_decimal(&r.prob),
            "ties": r.ties.iter().map(|t| al.decode(t)).collect::<Vec<_>>(),
            "search": r.search.name(),
            "candidates": r.candidates,
        }));
    }
    let ties: Vec<String> = r.ties.iter().skip(1).map(|t| al.decode(t)).collect();
    print_out(&format!(
        "Best reply to {pattern}: {} appears first with probability {} ({}){}\nsearch: {search}\n",
        al.decode(&r.reply),
        frac(&r.prob),
        decimal(&r.prob),
        if ties.is_empty() {
            String::new()
        } else {
            format!("; equally good: {}", ties.join(" "))
        }
    ))
}

fn best_first(args: &Args, al: &Alphabet, m: usize) -> CliResult {
    let b = game::best_first_pattern(al, m, FIRST_LIMIT).map_err(usage)?;
    if args.json {
        return print_json(&json!({
            "length": m,
            "pattern": al.decode(&b.pattern),
            "guaranteed": b.guaranteed.to_string(),
            "guaranteed_decimal": json_decimal(&b.guaranteed),
            "best_reply": al.decode(&b.reply),
        }));
    }
    print_out(&format!(
        "First player's best pattern of length {m}: {} wins with probability at least {} ({}); the best reply is {}\n",
        al.decode(&b.pattern),
        b.guaranteed,
        decimal(&b.guaranteed),
        al.decode(&b.reply)
    ))
}

fn table(args: &Args, al: &Alphabet, m: usize) -> CliResult {
    let (words, tab) = game::pair_table(al, m, TABLE_LIMIT).map_err(usage)?;
    let names: Vec<String> = words.iter().map(|w| al.decode(w)).collect();
    if args.json {
        let rows: Vec<Value> = tab
            .iter()
            .map(|row| {
                json!(row
                    .iter()
                    .map(|x| x.as_ref().map(|p| p.to_string()))
                    .collect::<Vec<_>>())
            })
            .collect();
        return print_json(&json!({
            "length": m,
            "patterns": names,
            "meaning": "table[i][j] = P(patterns[j] appears before patterns[i])",
            "table": rows,
        }));
    }
    let cell = tab
        .iter()
        .flatten()
        .flatten()
        .map(|p| p.to_string().len())
        .chain(names.iter().map(|n| n.chars().count()))
        .max()
        .unwrap_or(1);
    let mut t = format!(
        "P(column appears before row), patterns of length {m}\n{:<cell$}",
        ""
    );
    for n in &names {
        t.push_str(&format!(" {n:>cell$}"));
    }
    t.push('\n');
    for (i, row) in tab.iter().enumerate() {
        t.push_str(&format!("{:<cell$}", names[i]));
        for x in row {
            let s = x.as_ref().map_or("-".to_string(), |p| p.to_string());
            t.push_str(&format!(" {s:>cell$}"));
        }
        t.push('\n');
    }
    print_out(&t)
}

fn cycle(args: &Args, al: &Alphabet, m: usize) -> CliResult {
    let c = game::nontransitive_cycle(al, m, REPLY_LIMIT).map_err(usage)?;
    if args.json {
        return print_json(&json!({
            "length": m,
            "cycle": c.as_ref().map(|c| c.iter().map(|(w, p)| json!({
                "pattern": al.decode(w),
                "beats_previous": p.to_string(),
                "decimal": json_decimal(p),
            })).collect::<Vec<_>>()),
        }));
    }
    let Some(c) = c else {
        return print_out(&format!(
            "No non-transitive cycle of best replies for length {m}\n"
        ));
    };
    let mut t =
        format!("Non-transitive cycle of length-{m} patterns (each beats the one before it):\n");
    for (k, (w, p)) in c.iter().enumerate() {
        let prev = &c[(k + c.len() - 1) % c.len()].0;
        t.push_str(&format!(
            "  {} beats {} with probability {} ({})\n",
            al.decode(w),
            al.decode(prev),
            p,
            decimal(p)
        ));
    }
    print_out(&t)
}
