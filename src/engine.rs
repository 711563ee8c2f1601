//! The backward engine: count dependencies from the roots, run each node once all its incoming
//! gradients have arrived (latest-created first among the ready ones, as PyTorch), sum gradients
//! per input, run tensor hooks then retain_grad, and accumulate into leaves.
use crate::backend;
use crate::error::{Error, Result};
use crate::grad_mode::GradModeGuard;
use crate::graph::anomaly;
use crate::graph::arena::{NodeId, NodeRef};
use crate::graph::node::{lock, Edge, Node, NodeKind};
use crate::ops;
use crate::shape::fmt_shape;
use crate::tensor::Tensor;
use std::collections::BinaryHeap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// Node ids are small integers already: mix them once instead of running SipHash.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.0 = (self.0 << 32) ^ v as u64;
    }
}

type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<IdHasher>>;
type HashSet<K> = std::collections::HashSet<K, BuildHasherDefault<IdHasher>>;

#[derive(Clone, Copy, Default)]
pub struct BackwardOptions {
    pub retain_graph: bool,
    pub create_graph: bool,
    /// true: `.backward()` (fill `.grad`); false: `autograd.grad` (return the grads).
    pub accumulate: bool,
}

struct Task {
    node: NodeRef,
    deps: usize,
    buffer: Vec<Option<Tensor>>,
    needed: bool,
}

static GRAPH_TASKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The nodes a backward pass runs or captures, recorded for `will_execute` (None: every node
/// it reached).
type ExecInfo = Option<std::rc::Rc<HashSet<NodeId>>>;

/// A backward pass running on this thread.
struct RunningTask {
    id: u64,
    /// fills every leaf's .grad (`.backward()` without `inputs`)
    fills_all: bool,
    /// `.backward()` rather than `autograd.grad`
    accumulate: bool,
    exec_info: ExecInfo,
}

thread_local! {
    /// The backward passes running on this thread, innermost last.
    static CURRENT_TASK: std::cell::RefCell<Vec<RunningTask>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Set once something may ask which nodes a backward pass executes (`register_multi_grad_hook`):
/// from then on each pass records them. Nothing is recorded before, so passes pay nothing for
/// it.
static TRACK_EXEC_INFO: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Make later backward passes record the nodes they execute (see [`will_execute`]).
pub fn track_exec_info() {
    TRACK_EXEC_INFO.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Will the backward pass running on this thread execute (or capture) node `id`? PyTorch's
/// `_will_engine_execute_node`: a pass without `inputs` executes every node it reached. (True
/// for a pass that started before anything asked to track.)
pub fn will_execute(node: &NodeRef) -> Result<bool> {
    CURRENT_TASK.with(|c| match c.borrow().last() {
        None => Err(Error::Runtime(
            "_will_engine_execute_node should only be called during the backward pass".into(),
        )),
        Some(t) if !t.accumulate && matches!(node.kind, NodeKind::AccumulateGrad(_)) => {
            Err(Error::Runtime("A leaf node was passed to _will_engine_execute_node but we are currently running autograd.grad(). This is currently not supported.".into()))
        }
        Some(t) => Ok(t.exec_info.as_ref().is_none_or(|set| set.contains(&node.id()))),
    })
}

/// The id of the backward pass running on this thread (innermost one when nested), if any:
/// each call of `backward` is a new graph task, as in PyTorch (checkpoint keys its recomputed
/// tensors by it).
pub fn current_graph_task() -> Option<u64> {
    CURRENT_TASK.with(|c| c.borrow().last().map(|t| t.id))
}

/// False inside a backward pass that computes only some gradients (`autograd.grad`,
/// `backward(inputs=...)`), where the reentrant checkpoint cannot work (PyTorch's
/// `_is_checkpoint_valid`).
pub fn checkpoint_valid() -> bool {
    CURRENT_TASK.with(|c| c.borrow().last().is_none_or(|t| t.fills_all))
}

struct TaskScope;

impl TaskScope {
    fn enter(fills_all: bool, accumulate: bool) -> TaskScope {
        let id = GRAPH_TASKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        CURRENT_TASK.with(|c| {
            c.borrow_mut().push(RunningTask {
                id,
                fills_all,
                accumulate,
                exec_info: None,
            })
        });
        TaskScope
    }
}

impl Drop for TaskScope {
    fn drop(&mut self) {
        CURRENT_TASK.with(|c| {
            c.borrow_mut().pop();
        });
    }
}

/// Run backward from `roots` (tensor, gradient). With `inputs`, only paths to them run and their
/// gradients are returned (autograd.grad) or accumulated only into them (backward(inputs=)).
pub fn backward(
    roots: &[(Tensor, Tensor)],
    inputs: Option<&[Tensor]>,
    opts: BackwardOptions,
) -> Result<Vec<Option<Tensor>>> {
    match inputs {
        None => backward_to(roots, None, opts),
        Some(inputs) => {
            let edges: Vec<Edge> = inputs.iter().map(ops::gradient_edge).collect();
            backward_to(roots, Some(&edges), opts)
        }
    }
}

/// `backward` with the inputs given as gradient edges (PyTorch's `GradientEdge`: a node and one
/// of its inputs): the gradient captured, or accumulated, is what flows into that edge.
pub fn backward_to(
    roots: &[(Tensor, Tensor)],
    inputs: Option<&[Edge]>,
    opts: BackwardOptions,
) -> Result<Vec<Option<Tensor>>> {
    let mut edges = Vec::with_capacity(roots.len());
    for (i, (t, g)) in roots.iter().enumerate() {
        let e = ops::try_gradient_edge(t)?;
        if e.node.is_none() {
            return Err(Error::Runtime(format!(
                "element {} of tensors does not require grad and does not have a grad_fn",
                i
            )));
        }
        edges.push((e, g.clone()));
    }
    backward_edges(&edges, inputs, opts)
}

/// The backward pass from gradient edges (a `GradientEdge` as an output: the gradient given is
/// what flows into that node's input), to `inputs` (edges) or to every leaf.
pub fn backward_edges(
    roots: &[(Edge, Tensor)],
    inputs: Option<&[Edge]>,
    opts: BackwardOptions,
) -> Result<Vec<Option<Tensor>>> {
    let _task = TaskScope::enter(opts.accumulate && inputs.is_none(), opts.accumulate);
    // saved-tensor hooks entered (and not left) by hooks during the pass end with it
    let _saved_hooks = crate::graph::saved::StackGuard::enter();
    let mut tasks: HashMap<NodeId, Task> = HashMap::default();
    let root_edges: Vec<Edge> = roots.iter().map(|(e, _)| e.clone()).collect();

    // Discover the graph and count, for each node, the edges that reach it.
    let mut stack: Vec<NodeRef> = Vec::new();
    for e in &root_edges {
        let n = e.node.clone().expect("checked above");
        if let std::collections::hash_map::Entry::Vacant(v) = tasks.entry(n.id()) {
            v.insert(new_task(&n));
            stack.push(n);
        }
    }
    while let Some(n) = stack.pop() {
        for e in n.next.iter() {
            if let Some(c) = &e.node {
                match tasks.get_mut(&c.id()) {
                    Some(t) => t.deps += 1,
                    None => {
                        let mut t = new_task(c);
                        t.deps = 1;
                        tasks.insert(c.id(), t);
                        stack.push(c.clone());
                    }
                }
            }
        }
    }

    // With `inputs`, run only the nodes from which an input can be reached.
    let mut captures: Vec<Option<(NodeId, u32)>> = Vec::new();
    let mut captured: Vec<Option<Tensor>> = Vec::new();
    let mut targets: HashSet<NodeId> = HashSet::default();
    if let Some(inputs) = inputs {
        for e in inputs {
            let c = e.node.as_ref().map(|n| (n.id(), e.input_nr));
            if let Some((id, _)) = c {
                targets.insert(id);
            }
            captures.push(c);
            captured.push(None);
        }
        mark_needed(&mut tasks, &targets, opts.accumulate);
    }
    if TRACK_EXEC_INFO.load(std::sync::atomic::Ordering::Relaxed) {
        let set: HashSet<NodeId> = tasks
            .iter()
            .filter(|(id, t)| t.needed || targets.contains(*id))
            .map(|(id, _)| *id)
            .collect();
        CURRENT_TASK.with(|c| {
            if let Some(top) = c.borrow_mut().last_mut() {
                top.exec_info = Some(std::rc::Rc::new(set));
            }
        });
    }

    for ((_, g), e) in roots.iter().zip(&root_edges) {
        let n = e.node.as_ref().expect("checked above");
        let task = tasks.get_mut(&n.id()).expect("discovered");
        add_to(&mut task.buffer, e.input_nr as usize, g.clone())?;
    }

    let mut ready: BinaryHeap<(u64, NodeId)> = BinaryHeap::new();
    for (id, t) in tasks.iter() {
        if t.deps == 0 {
            ready.push((t.node.seq, *id));
        }
    }

    let _mode = GradModeGuard::grad_only(opts.create_graph);
    while let Some((_, id)) = ready.pop() {
        let Some(task) = tasks.remove(&id) else {
            continue;
        };
        let node = task.node;
        let mut grads = task.buffer;
        if !task.needed && !targets.contains(&id) {
            // neither run nor captured: PyTorch never reaches it (not even its tensor hooks)
            continue;
        }

        run_tensor_hooks(&node, &mut grads)?;
        for (i, c) in captures.iter().enumerate() {
            if let Some((cid, nr)) = c {
                if *cid == id {
                    captured[i] = grads.get(*nr as usize).cloned().flatten();
                }
            }
        }
        if !task.needed {
            continue;
        }
        let mut grads = run_pre_hooks(&node, grads)?;

        let outputs = match &node.kind {
            NodeKind::AccumulateGrad(var) => {
                // A variable that an in-place op made a non-leaf since the graph was recorded
                // is refused (PyTorch's logic_error); one that stopped requiring grad
                // (`requires_grad_(False)`, `detach_()`) is left alone.
                if opts.accumulate
                    && grads.first().is_some_and(Option::is_some)
                    && var.grad_fn().is_some()
                {
                    return Err(Error::Runtime(
                        "leaf variable has been moved into the graph interior".into(),
                    ));
                }
                if opts.accumulate && var.requires_grad() {
                    if let Some(g) = grads.first_mut().and_then(Option::take) {
                        grads[0] = Some(accumulate_grad(var, g, opts.create_graph)?);
                    }
                    // the node's own post hooks run last, with no gradient inputs (PyTorch)
                    run_post_hooks(&node, &grads, Vec::new())?;
                }
                continue;
            }
            // A built-in formula given no gradient at all gives none (PyTorch's generated
            // backwards return undefined gradients then, rather than zeros).
            NodeKind::Function(_) if grads.iter().all(Option::is_none) => {
                if !opts.retain_graph {
                    node.release_saved();
                }
                let none = vec![None; node.next.len()];
                run_post_hooks(&node, &grads, none)?
            }
            NodeKind::Function(f) => {
                let grads_in = materialized(&node, &grads)?;
                let out = anomaly_checked(&node, || {
                    let saved = Node::unpack_saved(&node, opts.create_graph)?;
                    let _needed = ops::NeededInputs::set(Some(&node.next));
                    f(&saved, &grads_in)
                })?;
                if !opts.retain_graph {
                    node.release_saved();
                }
                let out = validate_outputs(&node, out)?;
                run_post_hooks(&node, &grads, out)?
            }
            NodeKind::Custom(f) => {
                let out = anomaly_checked(&node, || f(&grads))?;
                if !opts.retain_graph {
                    node.release_saved();
                }
                let out = validate_outputs(&node, out)?;
                run_post_hooks(&node, &grads, out)?
            }
        };

        for (e, g) in node.next.iter().zip(outputs) {
            let Some(child) = &e.node else { continue };
            let Some(ct) = tasks.get_mut(&child.id()) else {
                continue;
            };
            if let Some(g) = g {
                add_to(&mut ct.buffer, e.input_nr as usize, g)?;
            }
            ct.deps -= 1;
            if ct.deps == 0 {
                ready.push((ct.node.seq, child.id()));
            }
        }
    }
    Ok(captured)
}

/// A built-in formula's output gradients, zeros where none arrived.
fn materialized(node: &Node, grads: &[Option<Tensor>]) -> Result<Vec<Tensor>> {
    grads
        .iter()
        .zip(node.output_meta.iter())
        .map(|(g, m)| match g {
            Some(g) => Ok(g.clone()),
            None => Tensor::zeros_on(&m.shape, m.dtype, m.device),
        })
        .collect()
}

/// A node's backward run directly, outside a backward pass (PyTorch's `Node.__call__`): its
/// formula on these output gradients (zeros for None), the saved values kept and unpacked with
/// a graph when grad mode is on.
pub fn call_node(node: &NodeRef, grads: Vec<Option<Tensor>>) -> Result<Vec<Option<Tensor>>> {
    let out = match &node.kind {
        NodeKind::Function(f) => {
            let grads_in = materialized(node, &grads)?;
            let saved = Node::unpack_saved(node, crate::grad_mode::is_grad_enabled())?;
            // as in a backward pass: the inputs with an edge (PyTorch's should_compute_output)
            let _needed = ops::NeededInputs::set(Some(&node.next));
            f(&saved, &grads_in)?
        }
        NodeKind::Custom(f) => f(&grads)?,
        _ => {
            return Err(Error::Runtime(format!(
                "{} cannot be called directly",
                node.name
            )))
        }
    };
    validate_outputs(node, out)
}

/// PyTorch's error for a node whose `i`th gradient has NaN values.
fn check_nan_gradients(name: &str, grads: &[Option<Tensor>]) -> Result<()> {
    if !anomaly::check_nan() {
        return Ok(());
    }
    for (i, g) in grads.iter().enumerate() {
        let Some(g) = g else { continue };
        if !g.dtype().is_differentiable() {
            continue;
        }
        let nan = ops::compare(ops::CmpOp::Ne, g, g)?;
        let count = ops::sum(
            &backend::cast(&nan, crate::dtype::DType::Int64)?,
            None,
            false,
        )?;
        if count.item()?.re != 0.0 {
            return Err(Error::Runtime(format!(
                "Function '{}' returned nan values in its {}th output.",
                name, i
            )));
        }
    }
    Ok(())
}

/// Run a node's backward; in anomaly mode, NaN gradients fail (PyTorch's check) and a failing
/// node is reported with where it was made.
fn anomaly_checked(
    node: &NodeRef,
    run: impl FnOnce() -> Result<Vec<Option<Tensor>>>,
) -> Result<Vec<Option<Tensor>>> {
    if !anomaly::is_enabled() {
        return run();
    }
    let r = anomaly::running(node, run).and_then(|out| {
        check_nan_gradients(&node.name, &out)?;
        Ok(out)
    });
    if r.is_err() {
        anomaly::report(node);
    }
    r
}

fn new_task(n: &NodeRef) -> Task {
    let outs = n.output_meta.len().max(1);
    Task {
        node: n.clone(),
        deps: 0,
        buffer: vec![None; outs],
        needed: true,
    }
}

/// needed(n) = n is a target (when accumulating) or some child is a target or
/// needed. Computed children-first over the discovered DAG without recursion.
fn mark_needed(tasks: &mut HashMap<NodeId, Task>, targets: &HashSet<NodeId>, accumulate: bool) {
    let mut order: Vec<NodeId> = Vec::with_capacity(tasks.len());
    let mut state: HashMap<NodeId, u8> =
        HashMap::with_capacity_and_hasher(tasks.len(), Default::default());
    let ids: Vec<NodeId> = tasks.keys().copied().collect();
    for start in ids {
        if state.contains_key(&start) {
            continue;
        }
        let mut stack = vec![(start, false)];
        while let Some((id, done)) = stack.pop() {
            if done {
                order.push(id);
                continue;
            }
            if state.contains_key(&id) {
                continue;
            }
            state.insert(id, 1);
            stack.push((id, true));
            for e in tasks[&id].node.next.iter() {
                if let Some(c) = &e.node {
                    if !state.contains_key(&c.id()) {
                        stack.push((c.id(), false));
                    }
                }
            }
        }
    }
    for id in order {
        let children: Vec<NodeId> = tasks[&id]
            .node
            .next
            .iter()
            .filter_map(|e| e.node.as_ref().map(|n| n.id()))
            .collect();
        // backward(inputs=) runs an input's grad_fn itself (hooks and all), grad() only captures
        let needed = (accumulate && targets.contains(&id))
            || children
                .iter()
                .any(|c| targets.contains(c) || tasks.get(c).is_some_and(|t| t.needed));
        tasks.get_mut(&id).expect("listed").needed = needed;
    }
}

fn add_to(buf: &mut [Option<Tensor>], i: usize, g: Tensor) -> Result<()> {
    let slot = buf
        .get_mut(i)
        .ok_or_else(|| Error::Runtime("invalid gradient edge".into()))?;
    *slot = Some(match slot.take() {
        None => g,
        Some(prev) => ops::add(&prev, &g)?,
    });
    Ok(())
}

/// Tensor hooks (in registration order), then retain_grad.
fn run_tensor_hooks(node: &NodeRef, grads: &mut [Option<Tensor>]) -> Result<()> {
    if let NodeKind::AccumulateGrad(var) = &node.kind {
        let hooks: Vec<_> = var.meta().hooks.iter().map(|(_, h)| h.clone()).collect();
        for h in hooks {
            if let Some(g) = &grads[0] {
                if let Some(new) = h(Some(g))? {
                    grads[0] = Some(new);
                }
            }
        }
        return Ok(());
    }
    if !node.has_hooks() {
        return Ok(());
    }
    let (pre, retains) = {
        let h = lock(&node.hooks);
        (h.tensor_pre.clone(), h.retains.clone())
    };
    for (nr, _, h) in pre {
        if let Some(g) = grads.get(nr as usize) {
            if let Some(new) = h(g.as_ref())? {
                grads[nr as usize] = Some(new);
            }
        }
    }
    for (nr, weak) in retains {
        let (Some(t), Some(Some(g))) = (weak.upgrade(), grads.get(nr as usize)) else {
            continue;
        };
        let t = Tensor(t);
        let old = t.grad();
        let new = match old {
            None => ops::clone(g)?,
            Some(old) => ops::add(&old, g)?,
        };
        t.meta().grad = Some(new);
    }
    Ok(())
}

fn run_pre_hooks(node: &NodeRef, grads: Vec<Option<Tensor>>) -> Result<Vec<Option<Tensor>>> {
    if !node.has_hooks() {
        return Ok(grads);
    }
    let hooks: Vec<_> = lock(&node.hooks)
        .pre
        .iter()
        .map(|(_, h)| h.clone())
        .collect();
    let mut grads = grads;
    for h in hooks {
        if let Some(new) = h(&grads)? {
            grads = new;
        }
    }
    Ok(grads)
}

fn run_post_hooks(
    node: &NodeRef,
    grad_outputs: &[Option<Tensor>],
    grad_inputs: Vec<Option<Tensor>>,
) -> Result<Vec<Option<Tensor>>> {
    if !node.has_hooks() {
        return Ok(grad_inputs);
    }
    let hooks: Vec<_> = lock(&node.hooks)
        .post
        .iter()
        .map(|(_, h)| h.clone())
        .collect();
    let mut gi = grad_inputs;
    for h in hooks {
        if let Some(new) = h(&gi, grad_outputs)? {
            gi = new;
        }
    }
    Ok(gi)
}

/// Gradients come back in each input's shape and dtype: broadcasting is summed away here, once,
/// instead of in every formula.
fn validate_outputs(node: &Node, out: Vec<Option<Tensor>>) -> Result<Vec<Option<Tensor>>> {
    if out.len() != node.next.len() {
        return Err(Error::Runtime(format!(
            "function {} returned an incorrect number of gradients (expected {}, got {})",
            node.name,
            node.next.len(),
            out.len()
        )));
    }
    out.into_iter()
        .zip(node.input_meta.iter())
        .zip(node.next.iter())
        .enumerate()
        .map(|(i, ((g, m), e))| {
            let Some(mut g) = g else { return Ok(None) };
            if e.node.is_none() {
                return Ok(None);
            }
            if g.shape() != m.shape {
                g = ops::sum_to(&g, &m.shape).map_err(|_| {
                    Error::Runtime(format!(
                        "Function {} returned an invalid gradient at index {} - got {} but expected shape compatible with {}",
                        node.name,
                        i,
                        fmt_shape(&g.shape()),
                        fmt_shape(&m.shape)
                    ))
                })?;
            }
            if g.dtype() != m.dtype {
                g = ops::to_dtype(&g, m.dtype)?;
            }
            Ok(Some(g))
        })
        .collect()
}

/// May the first `.grad` of `var` be `g` itself rather than a copy (PyTorch's AccumulateGrad
/// steals a gradient nothing else holds that is laid out as `var`'s gradient must be)?
fn can_steal(g: &Tensor, var: &Tensor) -> bool {
    if Arc::strong_count(&g.0) != 1 || g.dtype() != var.dtype() || g.device() != var.device() {
        return false;
    }
    let (gd, vd) = (g.data(), var.data());
    // a view nothing else sees (the transpose of a product made for this gradient, as
    // `mm_mat2_backward` makes it) is stolen too: its base is held by it alone
    let storage_refs = match &gd.base {
        None => 1,
        Some(b) if Arc::strong_count(&b.0) == 1 && Arc::ptr_eq(&b.data().storage, &gd.storage) => 2,
        Some(_) => 0,
    };
    if gd.version.is_some()
        || gd.offset != 0
        || Arc::strong_count(&gd.storage) != storage_refs
        || gd.storage.nbytes() != gd.numel() * gd.dtype.size()
        || gd.shape != vd.shape
    {
        return false;
    }
    if !vd.is_contiguous() && crate::backend::cpu::layout::is_dense(&vd.shape, &vd.strides) {
        gd.strides == vd.strides
    } else {
        gd.is_contiguous()
    }
}

/// `.grad += g` for a leaf: in place when possible (the `.grad` object keeps its identity), out
/// of place when recording a graph. Returns the gradient as the node's post hooks see it.
fn accumulate_grad(var: &Tensor, g: Tensor, create_graph: bool) -> Result<Tensor> {
    let dtype = var.dtype();
    let g = if g.dtype() != dtype {
        ops::to_dtype(&g, dtype)?
    } else {
        g
    };
    let old = var.grad();
    let new = match old {
        None => {
            if create_graph {
                ops::copy_backwards_clone(&g, var)?
            } else if can_steal(&g, var) {
                g.detached()
            } else {
                crate::backend::grad_copy(&g, var)?
            }
        }
        Some(old) => {
            if create_graph || old.requires_grad() || old.shape() != g.shape() {
                ops::add(&old, &g)?
            } else {
                let sum = ops::add(&old, &g)?;
                backend::copy_into(&old, &sum)?;
                ops::mark_written(&old);
                old
            }
        }
    };
    var.meta().grad = Some(new);
    let hooks: Vec<_> = var
        .meta()
        .post_acc_hooks
        .iter()
        .map(|(_, h)| h.clone())
        .collect();
    for h in hooks {
        h(var)?;
    }
    Ok(g)
}

// Composite ops: the one place where a backward re-runs a forward and differentiates it with
// a nested pass (activation checkpointing will reuse it).

/// A function of tensors built from other ops, recorded as ONE node named `name` (so it shows
/// PyTorch's node name). Its backward differentiates `f` again on the saved inputs, which makes
/// every composite correct to any order without a formula of its own.
pub type CompositeFn = std::sync::Arc<dyn Fn(&[Tensor]) -> Result<Tensor> + Send + Sync>;

/// What a composite node saves (see [`composite`]).
pub struct CompositeSaves<'a> {
    /// Positions of the inputs whose values the gradient does not read (held, not saved).
    pub unread: &'a [usize],
    /// The name of each input's saved slot (`_saved_<name>`).
    pub names: &'a [&'static str],
    /// Whether the output is saved too (as `result`).
    pub result: bool,
}

pub fn composite(
    name: impl Into<std::borrow::Cow<'static, str>>,
    inputs: &[Tensor],
    how: CompositeSaves<'_>,
    f: CompositeFn,
) -> Result<Tensor> {
    let unread = how.unread;
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        f(inputs)?.detached()
    };
    let refs: Vec<&Tensor> = inputs.iter().collect();
    if ops::needs_grad(&refs)? && out.dtype().is_differentiable() {
        // the inputs whose values the gradient reads are saved (checked, packed); the others
        // are held as they are (`f` is linear in them, so their values never matter)
        let mut saved = Vec::new();
        let mut held: Vec<Option<Tensor>> = Vec::with_capacity(inputs.len());
        for (i, t) in inputs.iter().enumerate() {
            if unread.contains(&i) {
                held.push(Some(t.clone()));
            } else {
                saved.push(ops::save(how.names.get(i).copied().unwrap_or("input"), t)?);
                held.push(None);
            }
        }
        // the output, saved only for its version check (the formula recomputes from inputs)
        let n_inputs = saved.len();
        if how.result {
            saved.push(ops::save_output("result", &out, 0)?);
        }
        ops::record(
            name,
            &refs,
            &[&out],
            saved,
            Box::new(move |s, g| {
                let create = crate::grad_mode::is_grad_enabled();
                let mut from_saved = s[..n_inputs].iter();
                let ins: Vec<Tensor> = held
                    .iter()
                    .map(|h| match h {
                        Some(t) => vjp_input(t),
                        None => vjp_input(from_saved.next().expect("one slot per saved input")),
                    })
                    .collect::<Result<_>>()?;
                let _g = crate::grad_mode::GradModeGuard::new(true);
                let y = f(&ins)?;
                if !y.requires_grad() {
                    return Ok(vec![None; ins.len()]);
                }
                let diff: Vec<Tensor> = ins.iter().filter(|t| t.requires_grad()).cloned().collect();
                // Under create_graph the result's graph reaches the inner nodes: keep their saved
                // tensors for the next order.
                let opts = BackwardOptions {
                    create_graph: create,
                    retain_graph: create,
                    ..Default::default()
                };
                let mut r = backward(&[(y, g[0].clone())], Some(&diff), opts)?.into_iter();
                Ok(ins
                    .iter()
                    .map(|t| {
                        if t.requires_grad() {
                            r.next().flatten()
                        } else {
                            None
                        }
                    })
                    .collect())
            }),
        )?;
    }
    Ok(out)
}

/// `f(x)` for an op whose gradient is the incoming gradient unchanged (adding or subtracting a
/// number: ATen's Scalar overloads `AddBackward1`/`SubBackward1`), recorded as ONE node named
/// `name` that saves nothing, as PyTorch's does.
pub fn passthrough(
    name: impl Into<std::borrow::Cow<'static, str>>,
    x: &Tensor,
    f: &dyn Fn(&Tensor) -> Result<Tensor>,
) -> Result<Tensor> {
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        f(x)?.detached()
    };
    if ops::needs_grad(&[x])? && out.dtype().is_differentiable() && x.dtype().is_differentiable() {
        ops::record(
            name,
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| Ok(vec![Some(g[0].clone())])),
        )?;
    }
    Ok(out)
}

/// An input for differentiating a pipeline inside a backward formula: the saved tensor itself
/// when recording a graph (so second derivatives reach its history), else a detached leaf.
///
/// When recording, each call returns a fresh alias of `t` (an AliasBackward0 node in front of
/// it), so the vector-Jacobian product is taken with respect to this use of `t` alone: an op
/// whose inputs are the same tensor twice (`maximum(c, c)`), or one input and its ancestor
/// (`maximum(x * 2, x)`), gets each input's own share of the gradient.
pub fn vjp_input(t: &Tensor) -> Result<Tensor> {
    if crate::grad_mode::is_grad_enabled() && t.requires_grad() {
        let a = t.detached();
        ops::record(
            "AliasBackward0",
            &[t],
            &[&a],
            vec![],
            Box::new(|_, g| Ok(vec![Some(g[0].clone())])),
        )?;
        return Ok(a);
    }
    let d = t.detached();
    if d.dtype().is_differentiable() {
        d.meta().requires_grad = true;
    }
    Ok(d)
}
