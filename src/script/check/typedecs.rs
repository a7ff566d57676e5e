//! moc's checks of a block's type declarations once their bodies are resolved: a type
//! declared in a function must not use the function's type parameters (M0137), a
//! definition must not be an alias of itself (M0157, non-productive), and a recursive
//! type must not pass its parameters to itself inside larger types (M0156, expansive:
//! unfolding it would never end).

use super::env::CheckResult;
use super::error::TypeError;
use super::sub::spend;
use super::types::{Con, Ty};
use crate::script::syntax::Span;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// How deep the checks below look into a declaration's body.
const DEPTH: usize = 64;

/// Runs the three checks over the declarations `decs` of the block at `block` (bodies
/// resolved), each with where it is declared. moc places M0137 at the declaration, M0156
/// and M0157 (about the declarations together) at the block.
pub(super) fn check_block(decs: &[(Rc<Con>, Span)], block: Span) -> CheckResult<()> {
    for (c, at) in decs {
        outer_params(c, *at)?;
    }
    let cons: Vec<Rc<Con>> = decs.iter().map(|(c, _)| c.clone()).collect();
    productive(&cons, block)?;
    expansive(&cons, block)
}

/// Out of work budget: the same error the checker gives everywhere.
fn out_of_fuel(at: Span) -> TypeError {
    TypeError::new(
        at,
        "M0000",
        "the type checker ran out of its work budget (the script is too large, or its types \
         too deeply recursive)",
    )
}

/// `type Name<A, B> = body` as moc prints it.
fn show_dec(c: &Con, names: &HashMap<u32, Rc<str>>) -> String {
    let params: Vec<&str> = c
        .params
        .iter()
        .map(|p| names.get(p).map_or("?", |n| &**n))
        .collect();
    let ps = if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    };
    let body = c.body().map(|b| b.to_string()).unwrap_or_default();
    format!("type {}{ps} = {body}", c.name)
}

/// Calls `f` on every type parameter occurring in `t` (not looking into declarations;
/// a function type's own parameters excluded), with whether it occurs as the whole of `t`.
pub(super) fn vars(
    t: &Ty,
    bound: &mut Vec<u32>,
    f: &mut dyn FnMut(u32, &Rc<str>),
    depth: usize,
) -> bool {
    if depth == 0 || !spend() {
        return false;
    }
    let d = depth - 1;
    match t {
        Ty::Var(id, n) => {
            if !bound.contains(id) {
                f(*id, n);
            }
            true
        }
        Ty::Unknown | Ty::Any | Ty::Non | Ty::Prim(_) => true,
        Ty::Opt(x) | Ty::Array(_, x) => vars(x, bound, f, d),
        Ty::Tuple(xs) | Ty::Con(_, xs) => xs.iter().all(|x| vars(x, bound, f, d)),
        Ty::Obj(_, fs) => fs.iter().all(|x| vars(&x.ty, bound, f, d)),
        Ty::Variant(ts) => ts.iter().all(|(_, x)| vars(x, bound, f, d)),
        Ty::Func(ft) => {
            let n = bound.len();
            bound.extend(ft.tparams.iter().map(|(i, _)| *i));
            let ok = ft.params.iter().all(|x| vars(x, bound, f, d)) && vars(&ft.ret, bound, f, d);
            bound.truncate(n);
            ok
        }
    }
}

/// M0137: the body of `c` (declared at `at`) uses a type parameter that is not its own (a
/// type declared in a generic function or class using the function's parameter).
fn outer_params(c: &Rc<Con>, at: Span) -> CheckResult<()> {
    let Some(body) = c.body() else {
        return Ok(());
    };
    let mut names = HashMap::new();
    let mut outer: Option<Rc<str>> = None;
    let complete = vars(
        &body,
        &mut Vec::new(),
        &mut |id, n| {
            names.insert(id, n.clone());
            if !c.params.contains(&id) && outer.is_none() {
                outer = Some(n.clone());
            }
        },
        DEPTH,
    );
    if !complete && !spend() {
        return Err(out_of_fuel(at));
    }
    match outer {
        Some(n) => Err(TypeError::new(
            at,
            "M0137",
            format!(
                "{} references type parameter {n} from an outer scope",
                show_dec(c, &names)
            ),
        )),
        None => Ok(()),
    }
}

/// M0157: some declarations of the block at `at` are (through aliases of the block)
/// aliases of themselves, or aliases of such a declaration; moc names them all, sorted.
/// Each chain of aliases is followed once (linear in the number of declarations).
fn productive(cons: &[Rc<Con>], at: Span) -> CheckResult<()> {
    const UNSEEN: u8 = 0;
    const ON_CHAIN: u8 = 1;
    const PRODUCTIVE: u8 = 2;
    const NON_PRODUCTIVE: u8 = 3;
    let index: HashMap<u32, usize> = cons.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let mut state = vec![UNSEEN; cons.len()];
    for start in 0..cons.len() {
        let mut chain = Vec::new();
        let mut cur = start;
        // what the chain from `start` ends in
        let end = loop {
            if !spend() {
                return Err(out_of_fuel(at));
            }
            match state[cur] {
                UNSEEN => {}
                // back on the chain: a cycle of aliases
                ON_CHAIN => break NON_PRODUCTIVE,
                done => break done,
            }
            state[cur] = ON_CHAIN;
            chain.push(cur);
            match cons[cur].body() {
                Some(Ty::Con(d, _)) if index.contains_key(&d.id) => cur = index[&d.id],
                _ => break PRODUCTIVE,
            }
        };
        chain.iter().for_each(|i| state[*i] = end);
    }
    let mut names: Vec<&str> = (0..cons.len())
        .filter(|i| state[*i] == NON_PRODUCTIVE)
        .map(|i| &*cons[i].name)
        .collect();
    if names.is_empty() {
        return Ok(());
    }
    names.sort_unstable();
    let plural = if names.len() > 1 { "s" } else { "" };
    Err(TypeError::new(
        at,
        "M0157",
        format!(
            "block contains non-productive definition{plural} {}",
            names.join(", ")
        ),
    ))
}

/// An edge of the parameter graph: parameter `from` of one declaration occurs in argument
/// `to` (a parameter of the declaration applied), as that argument exactly or inside it.
struct Edge {
    from: u32,
    to: u32,
    indirect: bool,
}

/// M0156: some parameter reaches itself through the block's declarations along a path
/// where it is once nested inside a larger argument (`type T<A> = ?T<[A]>`).
fn expansive(cons: &[Rc<Con>], at: Span) -> CheckResult<()> {
    let mut edges: Vec<Edge> = Vec::new();
    let ids: HashSet<u32> = cons.iter().map(|c| c.id).collect();
    for c in cons {
        let Some(body) = c.body() else { continue };
        applications(&body, c, &ids, &mut edges, DEPTH, at)?;
    }
    if !edges.iter().any(|e| e.indirect) {
        return Ok(());
    }
    // an indirect edge inside one strongly connected component is on a cycle
    let comp = components(&edges, at)?;
    for e in edges.iter().filter(|e| e.indirect) {
        if comp.contains_key(&e.from) && comp.get(&e.from) == comp.get(&e.to) {
            let c = cons.iter().find(|c| c.params.contains(&e.from));
            let name = c.map_or(String::new(), |c| c.name.to_string());
            return Err(TypeError::new(
                at,
                "M0156",
                format!(
                    "block contains expansive type definitions: a parameter of {name} occurs \
                     as an indirect argument of a recursive type"
                ),
            ));
        }
    }
    Ok(())
}

/// The strongly connected components of the parameter graph (Kosaraju's algorithm with
/// explicit stacks): each parameter's component number.
fn components(edges: &[Edge], at: Span) -> CheckResult<HashMap<u32, usize>> {
    let mut fwd: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut back: HashMap<u32, Vec<u32>> = HashMap::new();
    for e in edges {
        fwd.entry(e.from).or_default().push(e.to);
        back.entry(e.to).or_default().push(e.from);
        fwd.entry(e.to).or_default();
        back.entry(e.from).or_default();
    }
    let mut nodes: Vec<u32> = fwd.keys().copied().collect();
    nodes.sort_unstable();
    // first pass: the order in which nodes finish
    let mut order = Vec::with_capacity(nodes.len());
    let mut seen: HashSet<u32> = HashSet::new();
    for &n in &nodes {
        if !seen.insert(n) {
            continue;
        }
        let mut stack = vec![(n, 0usize)];
        while let Some((v, i)) = stack.pop() {
            if !spend() {
                return Err(out_of_fuel(at));
            }
            let next = &fwd[&v];
            if i < next.len() {
                stack.push((v, i + 1));
                let w = next[i];
                if seen.insert(w) {
                    stack.push((w, 0));
                }
            } else {
                order.push(v);
            }
        }
    }
    // second pass: over the reversed edges, in reverse finishing order
    let mut comp: HashMap<u32, usize> = HashMap::new();
    for (k, &n) in order.iter().rev().enumerate() {
        if comp.contains_key(&n) {
            continue;
        }
        comp.insert(n, k);
        let mut stack = vec![n];
        while let Some(v) = stack.pop() {
            if !spend() {
                return Err(out_of_fuel(at));
            }
            for &w in &back[&v] {
                if let std::collections::hash_map::Entry::Vacant(slot) = comp.entry(w) {
                    slot.insert(k);
                    stack.push(w);
                }
            }
        }
    }
    Ok(comp)
}

/// Adds the edges of the applications of the block's declarations (`ids`) in `t`, part
/// of the body of `owner`.
fn applications(
    t: &Ty,
    owner: &Con,
    cons: &HashSet<u32>,
    edges: &mut Vec<Edge>,
    depth: usize,
    at: Span,
) -> CheckResult<()> {
    if depth == 0 {
        return Ok(());
    }
    if !spend() {
        return Err(out_of_fuel(at));
    }
    let d = depth - 1;
    match t {
        Ty::Con(c, args) => {
            if cons.contains(&c.id) {
                for (arg, to) in args.iter().zip(&c.params) {
                    let direct = match arg {
                        Ty::Var(id, _) => Some(*id),
                        _ => None,
                    };
                    vars(
                        arg,
                        &mut Vec::new(),
                        &mut |id, _| {
                            if owner.params.contains(&id) {
                                edges.push(Edge {
                                    from: id,
                                    to: *to,
                                    indirect: direct != Some(id),
                                });
                            }
                        },
                        DEPTH,
                    );
                }
            }
            args.iter()
                .try_for_each(|a| applications(a, owner, cons, edges, d, at))
        }
        Ty::Opt(x) | Ty::Array(_, x) => applications(x, owner, cons, edges, d, at),
        Ty::Tuple(xs) => xs
            .iter()
            .try_for_each(|x| applications(x, owner, cons, edges, d, at)),
        Ty::Obj(_, fs) => fs
            .iter()
            .try_for_each(|x| applications(&x.ty, owner, cons, edges, d, at)),
        Ty::Variant(ts) => ts
            .iter()
            .try_for_each(|(_, x)| applications(x, owner, cons, edges, d, at)),
        Ty::Func(ft) => {
            ft.params
                .iter()
                .try_for_each(|x| applications(x, owner, cons, edges, d, at))?;
            applications(&ft.ret, owner, cons, edges, d, at)
        }
        Ty::Unknown | Ty::Any | Ty::Non | Ty::Prim(_) | Ty::Var(..) => Ok(()),
    }
}
