//! The campaign: jobs over (fixture, file, truncations | mutants), run on a few threads,
//! each run under a watchdog, a panic catcher and a memory meter, with figures per file.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::alloc::RunMeter;
use super::cpu;
use super::exercise::{exercise, Outcome, Parts};
use super::files::{FileKind, FileMap, Fixture};
use super::mutate::{mutant, mutant_seed, Edit, Mutant};
use mo_mem::image::Image;

/// Campaign settings, from the environment.
#[derive(Clone, Debug)]
pub struct Config {
    /// `MO_MEM_MUTANTS`: seeded mutants per file per fixture (default: [`ci_cases`]).
    pub mutants: Option<usize>,
    /// `MO_MEM_MUTATION_TRUNCATIONS=all|N`: truncations run per file (default: all of
    /// `metadata.json`'s up to four times [`ci_cases`], twice that for the other files,
    /// evenly spread over the list).
    pub truncations: Option<usize>,
    /// `MO_MEM_MUTATION_SEED`.
    pub seed: u64,
    /// `MO_MEM_MUTATION_THREADS`.
    pub threads: usize,
    /// `MO_MEM_MUTATION_RUN_SECS`: a run using more CPU time than this fails the test.
    pub run_limit: Duration,
    /// Bytes a run may hold above the image size (256 MiB).
    pub memory_allowance: u64,
    /// `MO_MEM_MUTATION_CASE=name/mode:file:truncate|mutate:index`: run only this case.
    pub only: Option<String>,
    /// `MO_MEM_MUTATION_PROGRESS_SECS`: print the figures so far this often (long campaigns).
    pub progress: Option<Duration>,
    /// `MO_MEM_MUTATION_MODES=truncate,mutate` (default both): which modes run.
    pub modes: Vec<Mode>,
    /// `MO_MEM_MUTATION_FILES=wasm_memory.bin,...` (default all): which files are mutated.
    pub files: Vec<FileKind>,
}

/// Seeded truncation offsets per file (fixed, so a truncation index is reproducible).
pub const SEEDED_TRUNCATIONS: usize = 128;

/// Mutants per file, summed over the fixtures, in the default (CI) run of a debug build.
pub const CI_MUTANT_BUDGET: f64 = 320.0;

/// Truncations of `metadata.json` per fixture in the default (CI) run: the JSON parser refuses
/// every one of them before the decoder is reached, so a few (spread over the file, the first
/// and last among them) are enough; the budget goes to the heap files.
pub const CI_METADATA_TRUNCATIONS: usize = 8;

/// The least main-memory mutants per fixture in the default (CI) run, however large its heap:
/// every fixture's heap is decoded under mutation.
pub const MIN_MEMORY_MUTANTS: usize = 4;

/// The default mutants per file of a fixture whose heap has `objects` objects, among
/// `fixtures`: the CI budget shared by the fixtures, weighted by the cost of a run (which
/// grows with the heap: a run over a 2 000-object heap costs about a tenth of a second in a
/// debug build, over 126 000 objects about six seconds), between 1 and 64.
pub fn ci_cases(objects: usize, fixtures: usize) -> usize {
    let share = CI_MUTANT_BUDGET / fixtures.max(1) as f64;
    let weight = 4000.0 / (objects as f64 + 2000.0);
    ((share * weight).round() as usize).clamp(1, 64)
}

/// `cap` indices of `0..len`, evenly spread, always with the first and last.
fn spread(len: usize, cap: usize) -> Vec<usize> {
    if cap >= len {
        return (0..len).collect();
    }
    if cap <= 1 {
        return vec![0];
    }
    let mut v: Vec<usize> = (0..cap).map(|k| k * (len - 1) / (cap - 1)).collect();
    v.dedup();
    v
}

/// The value of variable `name`, if set; a value that does not parse fails (a typo must not
/// quietly select the default).
fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    let v = std::env::var(name).ok()?;
    match v.trim().parse() {
        Ok(x) => Some(x),
        Err(_) => panic!("{name}={v:?}: not a valid {}", std::any::type_name::<T>()),
    }
}

/// A count from variable `name`, if set: 0 fails (it would run nothing and pass).
fn count(name: &str) -> Option<usize> {
    let n = env::<usize>(name)?;
    assert!(n > 0, "{name}=0 runs nothing");
    Some(n)
}

/// The comma-separated entries of variable `name`, each of which must be one of `known`.
fn names<T: Copy>(name: &str, known: &[(&str, T)]) -> Option<Vec<T>> {
    let v = std::env::var(name).ok()?;
    let all: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
    let picked: Vec<T> = v
        .split(',')
        .map(|x| {
            let x = x.trim();
            known
                .iter()
                .find(|(n, _)| *n == x)
                .unwrap_or_else(|| panic!("{name}={v:?}: {x:?} is none of {all:?}"))
                .1
        })
        .collect();
    Some(picked)
}

impl Config {
    /// The settings from the environment.
    pub fn from_env() -> Config {
        super::check_variables();
        let debug = cfg!(debug_assertions);
        Config {
            mutants: count("MO_MEM_MUTANTS"),
            truncations: match std::env::var("MO_MEM_MUTATION_TRUNCATIONS").as_deref() {
                Ok("all") => Some(usize::MAX),
                _ => count("MO_MEM_MUTATION_TRUNCATIONS"),
            },
            seed: std::env::var("MO_MEM_MUTATION_SEED")
                .ok()
                .map(|v| {
                    let s = v.trim();
                    match s.strip_prefix("0x") {
                        Some(h) => u64::from_str_radix(h, 16).ok(),
                        None => s.parse().ok(),
                    }
                    .unwrap_or_else(|| panic!("MO_MEM_MUTATION_SEED={v:?}: not a u64"))
                })
                .unwrap_or(0x6d6f_6d65_6d75_7401),
            threads: count("MO_MEM_MUTATION_THREADS").unwrap_or(2),
            run_limit: Duration::from_secs_f64(
                env("MO_MEM_MUTATION_RUN_SECS").unwrap_or(if debug { 60.0 } else { 10.0 }),
            ),
            memory_allowance: 256 << 20,
            only: std::env::var("MO_MEM_MUTATION_CASE").ok(),
            progress: env::<f64>("MO_MEM_MUTATION_PROGRESS_SECS").map(Duration::from_secs_f64),
            modes: names(
                "MO_MEM_MUTATION_MODES",
                &[Mode::Truncate, Mode::Mutate].map(|m| (m.name(), m)),
            )
            .unwrap_or_else(|| vec![Mode::Truncate, Mode::Mutate]),
            files: names(
                "MO_MEM_MUTATION_FILES",
                &FileKind::ALL.map(|f| (f.name(), f)),
            )
            .unwrap_or_else(|| FileKind::ALL.to_vec()),
        }
    }
}

/// When a run started, by the wall clock and by its thread's CPU clock.
#[derive(Clone, Copy)]
struct RunClock {
    /// Wall-clock start.
    since: Instant,
    /// The worker thread's CPU clock and its reading at the start.
    cpu: Option<(libc::clockid_t, Duration)>,
}

impl RunClock {
    /// Starts timing a run on the calling thread.
    fn start() -> RunClock {
        let clock = cpu::this_thread_clock();
        RunClock {
            since: Instant::now(),
            cpu: clock.zip(clock.and_then(cpu::clock_time)),
        }
    }

    /// The CPU time the run's thread has used since the start: the run's cost (wall time
    /// also counts the time other processes held the core); wall time only where the
    /// clock cannot be read. Readable from another thread (the watchdog).
    fn cpu_used(&self) -> Duration {
        self.cpu
            .and_then(|(clock, at)| Some(cpu::clock_time(clock)?.saturating_sub(at)))
            .unwrap_or_else(|| self.since.elapsed())
    }
}

/// A run in progress: its clock and its case.
struct Run {
    clock: RunClock,
    label: String,
}

/// The run a worker is in (for the watchdog).
type InFlight = Mutex<Option<Run>>;

/// Truncations or mutants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mode {
    /// Truncation `index` of the file's truncation list.
    Truncate,
    /// Seeded mutant `index`.
    Mutate,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Truncate => "truncate",
            Mode::Mutate => "mutate",
        }
    }
}

/// Counts for one (fixture, file, mode).
#[derive(Default, Debug, Clone)]
pub struct Tally {
    /// Runs.
    pub runs: u64,
    /// Runs whose heap opened (every path then ran).
    pub decoded: u64,
    /// Runs refused at open, by reason.
    pub refused: BTreeMap<String, u64>,
    /// Typed errors of the paths after a successful open, by reason.
    pub partial: BTreeMap<String, u64>,
    /// Runs by mutation kind.
    pub kinds: BTreeMap<&'static str, u64>,
    /// The slowest run (its thread's CPU time).
    pub slowest: Duration,
    /// The case of the slowest run (to rerun it).
    pub slowest_case: String,
    /// The case of the run with the largest peak.
    pub peak_case: String,
    /// The CPU time of all runs.
    pub busy: Duration,
    /// The largest peak of bytes held by one run.
    pub peak_bytes: u64,
}

impl Tally {
    fn refused_total(&self) -> u64 {
        self.refused.values().sum()
    }

    fn merge(&mut self, o: &Tally) {
        self.runs += o.runs;
        self.decoded += o.decoded;
        for (k, v) in &o.refused {
            *self.refused.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &o.partial {
            *self.partial.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &o.kinds {
            *self.kinds.entry(k).or_default() += v;
        }
        if o.slowest > self.slowest {
            self.slowest = o.slowest;
            self.slowest_case = o.slowest_case.clone();
        }
        if o.peak_bytes > self.peak_bytes {
            self.peak_case = o.peak_case.clone();
        }
        self.busy += o.busy;
        self.peak_bytes = self.peak_bytes.max(o.peak_bytes);
    }
}

/// Cases per job.
const CHUNK: usize = 32;

/// One unit of work: some cases of one file of one fixture.
struct Job {
    fixture: usize,
    file: FileKind,
    mode: Mode,
    cases: Vec<usize>,
}

/// What the campaign found.
pub struct Report {
    /// Figures by (fixture, file, mode).
    pub tallies: BTreeMap<(String, FileKind, Mode), Tally>,
    /// Failures: panics, slow runs, memory breaches, broken promises; each names its case.
    pub failures: Vec<String>,
    /// Wall time.
    pub elapsed: Duration,
}

/// The case `index` of `file` of `fixture`: its kind, edit and the parts to run.
pub fn case(
    fixture: &Fixture,
    file: FileKind,
    mode: Mode,
    index: usize,
    seed: u64,
    cuts: &[usize],
    scratch: &mut Scratch,
) -> Option<(Mutant, Parts)> {
    let original = fixture.original(file);
    let m = match mode {
        Mode::Truncate => Mutant {
            kind: "truncation",
            edit: Edit::Truncate {
                len: *cuts.get(index)?,
            },
        },
        Mode::Mutate => {
            if original.is_empty() {
                return None;
            }
            let s = mutant_seed(seed, &fixture.label, file, index as u64);
            mutant(fixture.map(file), original, s)
        }
    };
    let parts = scratch
        .edited(fixture, file, &m.edit)
        .unwrap_or_else(|| parts_with(fixture, file, &m.edit));
    Some((m, parts))
}

/// A worker's copy of one fixture file, edited in place run after run (each edit undone from
/// the original once its run has dropped the image) instead of a fresh copy per run: the
/// `regions` stable memory is 49 MiB and the force-GC main memories 128 MiB, and copying them
/// per run cost more than the runs.
#[derive(Default)]
pub struct Scratch {
    slot: Option<(String, FileKind, Arc<[u8]>)>,
}

impl Scratch {
    /// The four files with `edit` applied in place to the scratch copy of `file`, if the
    /// edit keeps the file's length (else `None`: the caller copies).
    pub fn edited(&mut self, fixture: &Fixture, file: FileKind, edit: &Edit) -> Option<Parts> {
        let original = fixture.original(file);
        edit.touched(original.len())?;
        if file == FileKind::Metadata {
            return None;
        }
        let fresh = || Arc::<[u8]>::from(original);
        let mut buf = match self.slot.take() {
            Some((label, f, buf)) if label == fixture.label && f == file => buf,
            _ => fresh(),
        };
        if Arc::get_mut(&mut buf).is_none() {
            buf = fresh();
        }
        edit.apply_in_place(Arc::get_mut(&mut buf)?);
        let mut edited = Some(Image::from_shared(buf.clone()));
        self.slot = Some((fixture.label.clone(), file, buf));
        let mut pick = |k: FileKind| match edited.take_if(|_| k == file) {
            Some(image) => image,
            None => Image::from_shared(fixture.shared(k)),
        };
        Some(Parts {
            module: pick(FileKind::Module),
            memory: pick(FileKind::Memory),
            stable: pick(FileKind::Stable),
            metadata: fixture.original(FileKind::Metadata).to_vec(),
        })
    }

    /// Undoes `edit` on the scratch copy of `file` (after the run that read it); a copy still
    /// held elsewhere is dropped instead, and the next run starts from a fresh one.
    pub fn restore(&mut self, fixture: &Fixture, file: FileKind, edit: &Edit) {
        let Some((label, f, buf)) = self.slot.as_mut() else {
            return;
        };
        if *label != fixture.label || *f != file {
            return;
        }
        let original = fixture.original(file);
        let (Some(bytes), Some(ranges)) = (Arc::get_mut(buf), edit.touched(original.len())) else {
            self.slot = None;
            return;
        };
        for r in ranges {
            bytes[r.clone()].copy_from_slice(&original[r]);
        }
    }
}

/// The four files with `edit` applied to `file` (and, when the edit changes a data file's
/// length, `metadata.json` saying the new length).
pub fn parts_with(fixture: &Fixture, file: FileKind, edit: &Edit) -> Parts {
    let mut bytes = fixture.original(file).to_vec();
    edit.apply(&mut bytes);
    let metadata = match file {
        FileKind::Metadata => bytes.clone(),
        _ if bytes.len() != fixture.original(file).len() => {
            fixture.metadata_with_size(file, bytes.len())
        }
        _ => fixture.original(FileKind::Metadata).to_vec(),
    };
    let mut edited = Some(bytes);
    let mut pick = |k: FileKind| match edited.take_if(|_| k == file) {
        Some(b) => Image::from_vec(b),
        None => Image::from_shared(fixture.shared(k)),
    };
    Parts {
        module: pick(FileKind::Module),
        memory: pick(FileKind::Memory),
        stable: pick(FileKind::Stable),
        metadata,
    }
}

/// The object addresses of the original heap (rendered by every run).
pub fn object_sample(fixture: &Fixture) -> Vec<u64> {
    match fixture.map(FileKind::Memory) {
        FileMap::Memory { heap, .. } => heap.objects.iter().map(|o| o.addr).collect(),
        _ => Vec::new(),
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-text panic)".into())
}

/// Runs the campaign over `fixtures`.
pub fn run(fixtures: &[Fixture], config: &Config) -> Report {
    let started = Instant::now();
    let mut jobs = Vec::new();
    let mut cut_lists: Vec<Vec<Vec<usize>>> = Vec::new();
    for (fi, fixture) in fixtures.iter().enumerate() {
        let default = ci_cases(fixture.objects(), fixtures.len());
        let mut per_file = Vec::new();
        for file in FileKind::ALL {
            let cuts = fixture.truncations(file, SEEDED_TRUNCATIONS, config.seed);
            for mode in [Mode::Truncate, Mode::Mutate] {
                if !config.modes.contains(&mode) || !config.files.contains(&file) {
                    continue;
                }
                let cases: Vec<usize> = match mode {
                    Mode::Truncate => {
                        let ci = match file {
                            FileKind::Metadata => CI_METADATA_TRUNCATIONS,
                            _ => 2 * default,
                        };
                        spread(cuts.len(), config.truncations.unwrap_or(ci))
                    }
                    Mode::Mutate if fixture.original(file).is_empty() => Vec::new(),
                    Mode::Mutate => {
                        let ci = match file {
                            FileKind::Memory => default.max(MIN_MEMORY_MUTANTS),
                            _ => default,
                        };
                        (0..config.mutants.unwrap_or(ci)).collect()
                    }
                };
                for (round, chunk) in cases.chunks(CHUNK).enumerate() {
                    jobs.push((
                        round,
                        Job {
                            fixture: fi,
                            file,
                            mode,
                            cases: chunk.to_vec(),
                        },
                    ));
                }
            }
            per_file.push(cuts);
        }
        cut_lists.push(per_file);
    }
    // Round-robin over fixtures and files: a campaign stopped early has covered each alike.
    jobs.sort_by_key(|(round, _)| *round);
    let mut jobs: Vec<Job> = jobs.into_iter().map(|(_, job)| job).collect();
    if let Some(only) = &config.only {
        jobs = select(only, fixtures, &cut_lists);
    }
    let samples: Vec<Vec<u64>> = fixtures.iter().map(object_sample).collect();
    let next = AtomicUsize::new(0);
    let tallies: Mutex<BTreeMap<(String, FileKind, Mode), Tally>> = Mutex::new(BTreeMap::new());
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let in_flight: Arc<Vec<InFlight>> =
        Arc::new((0..config.threads).map(|_| Mutex::new(None)).collect());
    let done = Arc::new(AtomicBool::new(false));
    let watchdog = spawn_watchdog(
        in_flight.clone(),
        done.clone(),
        config.run_limit * 3,
        config.run_limit * 60,
    );
    let previous_hook = std::panic::take_hook();
    let panics_shown = AtomicUsize::new(0);
    std::panic::set_hook(Box::new(move |info| {
        if panics_shown.fetch_add(1, Ordering::Relaxed) < 5 {
            eprintln!("panic in a mutation run: {info}");
        }
    }));
    let workers_done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if let Some(every) = config.progress {
            let (tallies, failures, workers_done, next) =
                (&tallies, &failures, &workers_done, &next);
            let total_jobs = jobs.len();
            scope.spawn(move || {
                let mut last = Instant::now();
                while !workers_done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(500));
                    if last.elapsed() < every {
                        continue;
                    }
                    last = Instant::now();
                    let report = Report {
                        tallies: tallies.lock().unwrap_or_else(|p| p.into_inner()).clone(),
                        failures: failures.lock().unwrap_or_else(|p| p.into_inner()).clone(),
                        elapsed: started.elapsed(),
                    };
                    let taken = next.load(Ordering::Relaxed).min(total_jobs);
                    println!(
                        "== progress: {taken} of {total_jobs} jobs started, {} failures so far",
                        report.failures.len()
                    );
                    print(&report, config);
                }
            });
        }
        let mut handles = Vec::new();
        for worker in 0..config.threads {
            let (jobs, next, tallies, failures, in_flight) =
                (&jobs, &next, &tallies, &failures, &in_flight);
            let (fixtures, cut_lists, samples) = (&fixtures, &cut_lists, &samples);
            let handle = std::thread::Builder::new()
                .name(format!("mutation-{worker}"))
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    let mut scratch = Scratch::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        let fixture = &fixtures[job.fixture];
                        let cuts = &cut_lists[job.fixture][job.file as usize];
                        let mut tally = Tally::default();
                        for &index in &job.cases {
                            run_case(
                                fixture,
                                job,
                                index,
                                cuts,
                                &samples[job.fixture],
                                config,
                                &in_flight[worker],
                                &mut tally,
                                failures,
                                &mut scratch,
                            );
                        }
                        let key = (fixture.label.clone(), job.file, job.mode);
                        tallies
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .entry(key)
                            .or_default()
                            .merge(&tally);
                    }
                })
                .expect("spawn a mutation worker");
            handles.push(handle);
        }
        for h in handles {
            let _ = h.join();
        }
        workers_done.store(true, Ordering::Relaxed);
    });
    let _ = std::panic::take_hook();
    std::panic::set_hook(previous_hook);
    done.store(true, Ordering::Relaxed);
    let _ = watchdog.join();
    Report {
        tallies: tallies.into_inner().unwrap_or_else(|p| p.into_inner()),
        failures: failures.into_inner().unwrap_or_else(|p| p.into_inner()),
        elapsed: started.elapsed(),
    }
}

/// What the campaign promised but did not run: for each fixture, every selected file and mode
/// that has cases must have runs, and the main memory's mutants must reach the decoder (at
/// least [`MIN_MEMORY_MUTANTS`], or all requested if fewer, with a heap that opened). Empty
/// when one case was selected (`MO_MEM_MUTATION_CASE`).
pub fn shortfalls(report: &Report, fixtures: &[Fixture], config: &Config) -> Vec<String> {
    if config.only.is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if report.tallies.is_empty() {
        out.push("no runs at all".to_string());
    }
    for fixture in fixtures {
        for &file in &config.files {
            for &mode in &config.modes {
                if fixture.original(file).is_empty() {
                    continue;
                }
                let key = (fixture.label.clone(), file, mode);
                let tally = report.tallies.get(&key).cloned().unwrap_or_default();
                if tally.runs == 0 {
                    out.push(format!(
                        "{}: no {} runs of {}",
                        fixture.label,
                        mode.name(),
                        file.name()
                    ));
                }
                if file == FileKind::Memory && mode == Mode::Mutate {
                    let floor = config.mutants.unwrap_or(usize::MAX).min(MIN_MEMORY_MUTANTS) as u64;
                    if tally.decoded < floor {
                        out.push(format!(
                            "{}: {} of {} mutants of wasm_memory.bin reached the decoder, want at least {floor} (refused: {:?})",
                            fixture.label, tally.decoded, tally.runs, tally.refused
                        ));
                    }
                }
            }
        }
    }
    out
}

/// The jobs of one case named `name/mode:file:truncate|mutate:index`.
fn select(only: &str, fixtures: &[Fixture], cut_lists: &[Vec<Vec<usize>>]) -> Vec<Job> {
    let parts: Vec<&str> = only.split(':').collect();
    let (Some(label), Some(file), Some(mode), Some(index)) = (
        parts.first(),
        parts.get(1).and_then(|f| FileKind::from_name(f)),
        parts.get(2),
        parts.get(3).and_then(|i| i.parse::<usize>().ok()),
    ) else {
        panic!("MO_MEM_MUTATION_CASE={only}: expected name/mode:file:truncate|mutate:index");
    };
    let mode = if *mode == "truncate" {
        Mode::Truncate
    } else {
        Mode::Mutate
    };
    let fixture = fixtures
        .iter()
        .position(|f| f.label == *label)
        .unwrap_or_else(|| panic!("MO_MEM_MUTATION_CASE: no fixture {label}"));
    let _ = cut_lists;
    vec![Job {
        fixture,
        file,
        mode,
        cases: vec![index],
    }]
}

#[allow(clippy::too_many_arguments)]
fn run_case(
    fixture: &Fixture,
    job: &Job,
    index: usize,
    cuts: &[usize],
    objects: &[u64],
    config: &Config,
    in_flight: &InFlight,
    tally: &mut Tally,
    failures: &Mutex<Vec<String>>,
    scratch: &mut Scratch,
) {
    let Some((m, parts)) = case(
        fixture,
        job.file,
        job.mode,
        index,
        config.seed,
        cuts,
        scratch,
    ) else {
        return;
    };
    let label = format!(
        "MO_MEM_MUTATION_SEED={:#x} MO_MEM_MUTATION_CASE={}:{}:{}:{index} ({}: {})",
        config.seed,
        fixture.label,
        job.file.name(),
        job.mode.name(),
        m.kind,
        m.edit
    );
    let image_bytes = parts.memory.len() + parts.module.len() + parts.stable.len();
    let limit = config.memory_allowance + image_bytes;
    // Facts are reused while the module is the original (its parse is what is being skipped).
    let facts = (job.file != FileKind::Module)
        .then_some(fixture.facts.as_ref())
        .flatten();
    // Main-memory edits: the mount's tree is looked at closely where the bytes changed.
    let focus = match job.file {
        FileKind::Memory => m.edit.offsets(),
        _ => Vec::new(),
    };
    let meter = RunMeter::arm(&label, usize::try_from(limit * 4).unwrap_or(usize::MAX));
    let clock = RunClock::start();
    *in_flight.lock().unwrap_or_else(|p| p.into_inner()) = Some(Run {
        clock,
        label: label.clone(),
    });
    let result = catch_unwind(AssertUnwindSafe(|| {
        exercise(parts, facts, objects, index as u64, &focus)
    }));
    let (elapsed, wall) = (clock.cpu_used(), clock.since.elapsed());
    scratch.restore(fixture, job.file, &m.edit);
    let peak = meter.peak();
    drop(meter);
    *in_flight.lock().unwrap_or_else(|p| p.into_inner()) = None;
    let mut fail = |what: String| {
        failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(format!("{what}: {label}"));
    };
    tally.runs += 1;
    *tally.kinds.entry(m.kind).or_default() += 1;
    if elapsed > tally.slowest {
        tally.slowest = elapsed;
        tally.slowest_case = label.clone();
    }
    if peak > tally.peak_bytes {
        tally.peak_case = label.clone();
    }
    tally.busy += elapsed;
    tally.peak_bytes = tally.peak_bytes.max(peak);
    match result {
        Err(p) => fail(format!("PANIC ({})", panic_text(p.as_ref()))),
        Ok(outcome) => record(outcome, tally, &mut fail),
    }
    if elapsed > config.run_limit {
        fail(format!(
            "SLOW ({:.1} s of CPU, {:.1} s wall)",
            elapsed.as_secs_f64(),
            wall.as_secs_f64()
        ));
    }
    if peak > limit {
        fail(format!(
            "MEMORY ({} MiB at peak, limit {} MiB)",
            peak >> 20,
            limit >> 20
        ));
    }
}

fn record(outcome: Outcome, tally: &mut Tally, fail: &mut impl FnMut(String)) {
    match outcome.refused {
        Some(reason) => *tally.refused.entry(reason).or_default() += 1,
        None => tally.decoded += 1,
    }
    for p in outcome.partial {
        *tally.partial.entry(p).or_default() += 1;
    }
    for v in outcome.violations {
        fail(format!("BROKEN PROMISE ({v})"));
    }
}

/// Ends the process, naming the run, when a run has used `hang` of CPU time (a loop that
/// never ends), or has made no progress for `stuck` of wall time (a run blocked for good: a
/// stalled or paused process only slows the wall clock, not the run's CPU clock).
fn spawn_watchdog(
    in_flight: Arc<Vec<InFlight>>,
    done: Arc<AtomicBool>,
    hang: Duration,
    stuck: Duration,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while !done.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(250));
            for slot in in_flight.iter() {
                let slot = slot.lock().unwrap_or_else(|p| p.into_inner());
                if let Some(run) = slot.as_ref() {
                    let (cpu, wall) = (run.clock.cpu_used(), run.clock.since.elapsed());
                    if cpu > hang || wall > stuck {
                        eprintln!(
                            "\nHANG: a mutation run has taken {:.0} s of CPU, {:.0} s wall (limits {:.0} s, {:.0} s): {}",
                            cpu.as_secs_f64(),
                            wall.as_secs_f64(),
                            hang.as_secs_f64(),
                            stuck.as_secs_f64(),
                            run.label
                        );
                        std::process::exit(3);
                    }
                }
            }
        }
    })
}

/// Prints the figures: per fixture and file, then totals by reason.
pub fn print(report: &Report, config: &Config) {
    println!(
        "mutation campaign: seed {:#x}, mutants per file {}, truncations per file {}, {} threads, {:.1} s",
        config.seed,
        config.mutants.map_or("by heap size (CI)".to_string(), |n| n.to_string()),
        match config.truncations {
            Some(usize::MAX) => "all".to_string(),
            Some(n) => n.to_string(),
            None => "sampled by heap size (CI)".to_string(),
        },
        config.threads,
        report.elapsed.as_secs_f64()
    );
    println!(
        "{:<28} {:<18} {:<9} {:>7} {:>7} {:>7} {:>9} {:>7} {:>8}  refused by reason",
        "fixture", "file", "mode", "runs", "decoded", "refused", "slowest", "time", "peak MiB"
    );
    let mut total = Tally::default();
    let mut by_file: BTreeMap<(FileKind, Mode), Tally> = BTreeMap::new();
    for ((label, file, mode), t) in &report.tallies {
        total.merge(t);
        by_file.entry((*file, *mode)).or_default().merge(t);
        let reasons: Vec<String> = t.refused.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!(
            "{:<28} {:<18} {:<9} {:>7} {:>7} {:>7} {:>7.0}ms {:>6.1}s {:>8.1}  {}",
            label,
            file.name(),
            mode.name(),
            t.runs,
            t.decoded,
            t.refused_total(),
            t.slowest.as_secs_f64() * 1000.0,
            t.busy.as_secs_f64(),
            t.peak_bytes as f64 / (1 << 20) as f64,
            reasons.join(", ")
        );
    }
    println!("-- by file");
    for ((file, mode), t) in &by_file {
        println!(
            "{:<18} {:<9} runs {:>8}  decoded {:>8}  refused {:>8}  time {:>7.1} s",
            file.name(),
            mode.name(),
            t.runs,
            t.decoded,
            t.refused_total(),
            t.busy.as_secs_f64()
        );
    }
    println!(
        "-- total: {} runs, {} decoded, {} refused; slowest run {:.0} ms; largest peak {:.1} MiB",
        total.runs,
        total.decoded,
        total.refused_total(),
        total.slowest.as_secs_f64() * 1000.0,
        total.peak_bytes as f64 / (1 << 20) as f64
    );
    println!("-- slowest run: {}", total.slowest_case);
    println!("-- largest peak: {}", total.peak_case);
    println!("-- refused at open, by reason:");
    for (k, v) in &total.refused {
        println!("   {v:>9}  {k}");
    }
    println!("-- typed errors after open (decoded runs), by path and reason:");
    for (k, v) in &total.partial {
        println!("   {v:>9}  {k}");
    }
    println!("-- runs by mutation kind:");
    for (k, v) in &total.kinds {
        println!("   {v:>9}  {k}");
    }
}
