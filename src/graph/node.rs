//! Backward nodes: what the engine runs. A node holds its edges to the next nodes, the metadata of
//! the inputs and outputs of the forward op, the tensors it saved, and its hooks.
use super::arena::{NodeId, NodeRef};
use crate::dtype::DType;
use crate::error::{Error, Result, ANOMALY_HINT, SECOND_BACKWARD};
use crate::shape::{fmt_shape, Shape};
use crate::tensor::{Tensor, TensorImpl};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// Where a gradient goes: input `input_nr` of `node`, or nowhere.
#[derive(Clone)]
pub struct Edge {
    pub node: Option<NodeRef>,
    pub input_nr: u32,
}

impl Edge {
    pub fn none() -> Edge {
        Edge {
            node: None,
            input_nr: 0,
        }
    }
}

/// Shape and dtype a gradient must have.
#[derive(Clone, Debug)]
pub struct TensorMeta {
    pub shape: Shape,
    pub dtype: DType,
    pub device: crate::device::Device,
}

/// The derivative of one op: given the saved tensors and the gradients of its outputs, the
/// gradients of its inputs (one per edge, `None` where no gradient flows).
pub type BackwardFn =
    Box<dyn Fn(&[Tensor], &[Tensor]) -> Result<Vec<Option<Tensor>>> + Send + Sync>;

/// A tensor hook: sees a gradient (None where its node runs without one for this tensor, as
/// PyTorch passes an undefined gradient), may replace it.
pub type TensorHook = Arc<dyn Fn(Option<&Tensor>) -> Result<Option<Tensor>> + Send + Sync>;
/// A node pre-hook: sees the gradients of the outputs, may replace them.
pub type NodePreHook =
    Arc<dyn Fn(&[Option<Tensor>]) -> Result<Option<Vec<Option<Tensor>>>> + Send + Sync>;
/// A node post-hook: sees input and output gradients, may replace the input gradients.
pub type NodePostHook = Arc<
    dyn Fn(&[Option<Tensor>], &[Option<Tensor>]) -> Result<Option<Vec<Option<Tensor>>>>
        + Send
        + Sync,
>;

/// The derivative of a user-defined function (`torch.autograd.Function`): given the gradients of
/// its outputs, `None` where none arrived (the function decides whether to materialize them),
/// the gradients of its inputs. It reads its saved tensors itself, through the node.
pub type CustomBackwardFn =
    Box<dyn Fn(&[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> + Send + Sync>;

pub enum NodeKind {
    Function(BackwardFn),
    /// A user-defined function's backward.
    Custom(CustomBackwardFn),
    /// Sums incoming gradients into the leaf's `.grad`.
    AccumulateGrad(Tensor),
}

/// A non-tensor value of a node's op (`grad_fn._saved_<name>`), as PyTorch gives it to Python.
#[derive(Clone, Debug)]
pub enum SavedAttr {
    /// An int64 argument: PyTorch hands it to Python as unsigned (`dim=-1` reads
    /// 18446744073709551615, an open slice end 9223372036854775807).
    Int(i64),
    /// A Scalar argument holding an integer (`alpha=2`), signed.
    ScalarInt(i64),
    Float(f64),
    Bool(bool),
    Ints(Vec<i64>),
    Str(&'static str),
    /// An optional argument not given (`None`).
    None,
}

/// What a node keeps of a saved tensor: the tensor, or what saved-tensor hooks packed it into.
#[derive(Clone)]
pub enum SavedValue {
    Tensor(Tensor),
    Packed(Arc<dyn super::saved::PackedTensor>),
    /// Not saved: the formula does not need it (PyTorch's `_saved_*` reads None).
    Absent,
}

/// `name` as a `&'static str`, for saved-tensor names that come from the binding layer (each
/// distinct name is kept once, for the life of the process: a fixed set of op argument names).
pub fn intern(name: &str) -> &'static str {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut names = lock(&NAMES);
    if let Some(n) = names.iter().find(|n| **n == name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.push(n);
    n
}

/// The `output_nr` of a saved output that has no gradient (nll_loss's total weight): unpacked
/// as it is, never given this node as its grad_fn.
pub const NON_DIFFERENTIABLE_OUTPUT: u32 = u32::MAX;

/// A tensor kept for backward, with the version it had when saved.
pub struct SavedTensor {
    pub name: &'static str,
    /// For outputs of this node: an alias without `grad_fn` (a counted reference to the node from
    /// its own output would be a cycle); `is_output` tells the engine to re-attach the node.
    pub value: SavedValue,
    /// For a packed input: where its gradient went, given back to the unpacked tensor so that
    /// higher-order gradients still reach the input's history.
    pub edge: Option<Edge>,
    pub version: u32,
    pub is_output: bool,
    pub output_nr: u32,
    /// An input that had a grad_fn when saved: `detach_()` on it since is an error at unpack.
    pub had_grad_fn: bool,
    /// An output of an in-place op on a view: the view's grad_fn when it was saved
    /// (AsStrided, ...), which PyTorch's version error names instead of this node.
    pub view_owner: Option<String>,
    /// Left for the active saved-tensor hooks' pack, which runs when the node is recorded, in
    /// the order the node unpacks (`ops::pack_pending`).
    pub pack_pending: bool,
    /// An absent slot for what PyTorch saves and leafgrad's formula holds itself (index
    /// tensors): backward frees it as if it were saved.
    pub held_by_formula: bool,
}

impl SavedTensor {
    /// The tensor itself when it is kept as is (not packed by hooks).
    pub fn tensor(&self) -> Option<&Tensor> {
        match &self.value {
            SavedValue::Tensor(t) => Some(t),
            SavedValue::Packed(_) | SavedValue::Absent => None,
        }
    }
}

#[derive(Default)]
pub struct Saved {
    pub tensors: Vec<SavedTensor>,
    pub released: bool,
    /// Saved in the user's order (a custom function's `save_for_backward`), not PyTorch's.
    pub user_order: bool,
}

/// The order PyTorch's nodes pack and unpack their saved tensors: its generated code declares
/// the saved inputs sorted by name, then the outputs (`other` before `self`, `exponent` before
/// `self` before `result`); a custom function's are in the order given.
pub fn saved_order(tensors: &[SavedTensor], user_order: bool) -> smallvec::SmallVec<[usize; 8]> {
    let mut order: smallvec::SmallVec<[usize; 8]> = (0..tensors.len()).collect();
    if !user_order && tensors.len() > 1 {
        order.sort_by_key(|&i| (tensors[i].is_output, tensors[i].name));
    }
    order
}

#[derive(Default)]
pub struct NodeHooks {
    pub tensor_pre: Vec<(u32, u64, TensorHook)>,
    pub retains: Vec<(u32, Weak<TensorImpl>)>,
    pub pre: Vec<(u64, NodePreHook)>,
    pub post: Vec<(u64, NodePostHook)>,
    /// What the binding layer's hooks (and a user function's backward) hold, by hook id (0 for
    /// the node's lifetime): its garbage collector traverses them to find reference cycles
    /// through the node, as PyTorch's `THPVariable_subclass_traverse` visits hook dicts.
    pub objects: Vec<(u64, BindingObject)>,
}

/// An object the binding layer keeps alive from Rust (a Python callable), shared with the
/// closure that uses it.
pub type BindingObject = Arc<dyn std::any::Any + Send + Sync>;

pub struct Node {
    /// The arena id, packed (generation << 32 | index); set once on insertion.
    id: std::sync::atomic::AtomicU64,
    /// Counted references (see `NodeRef`); the node leaves the arena when it reaches zero.
    pub(crate) refs: std::sync::atomic::AtomicU32,
    pub name: Cow<'static, str>,
    pub next: SmallVec<[Edge; 2]>,
    pub input_meta: SmallVec<[TensorMeta; 2]>,
    pub output_meta: SmallVec<[TensorMeta; 1]>,
    pub seq: u64,
    pub kind: NodeKind,
    pub saved: Mutex<Saved>,
    pub hooks: Mutex<NodeHooks>,
    /// Any hook was ever added (the engine skips the hook locks otherwise).
    has_hooks: std::sync::atomic::AtomicBool,
    /// Opaque slot for the binding layer (its Python object for this node).
    pub binding: AtomicUsize,
    /// Where the node was made, recorded in anomaly mode only.
    pub trace: Option<String>,
    /// In anomaly mode, the node whose backward made this one (PyTorch's `parent_`): a failing
    /// node reports the chain of calculations that induced it.
    pub parent: Option<super::arena::NodeRef>,
    /// State the binding layer keeps for the node's lifetime (its `metadata` dict).
    pub binding_state: std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>,
    /// The op's non-tensor arguments its formula uses (PyTorch's `_saved_dim`, `_saved_alpha`,
    /// ...), set by the op after recording.
    pub attrs: std::sync::OnceLock<Box<[(&'static str, SavedAttr)]>>,
}

static SEQ: AtomicU64 = AtomicU64::new(0);
static HOOK_IDS: AtomicU64 = AtomicU64::new(1);

pub fn next_hook_id() -> u64 {
    HOOK_IDS.fetch_add(1, Ordering::Relaxed)
}

impl Node {
    pub fn new(
        name: impl Into<Cow<'static, str>>,
        next: SmallVec<[Edge; 2]>,
        input_meta: SmallVec<[TensorMeta; 2]>,
        output_meta: SmallVec<[TensorMeta; 1]>,
        kind: NodeKind,
        saved: Vec<SavedTensor>,
    ) -> Node {
        let seq = match kind {
            // PyTorch runs gradient accumulation as soon as it is ready.
            NodeKind::AccumulateGrad(_) => u64::MAX,
            _ => SEQ.fetch_add(1, Ordering::Relaxed),
        };
        Node {
            id: std::sync::atomic::AtomicU64::new(u64::MAX),
            refs: std::sync::atomic::AtomicU32::new(0),
            name: name.into(),
            next,
            input_meta,
            output_meta,
            seq,
            kind,
            saved: Mutex::new(Saved {
                tensors: saved,
                released: false,
                user_order: false,
            }),
            hooks: Mutex::new(NodeHooks::default()),
            has_hooks: std::sync::atomic::AtomicBool::new(false),
            binding: AtomicUsize::new(0),
            trace: super::anomaly::trace(),
            parent: super::anomaly::parent(),
            binding_state: std::sync::OnceLock::new(),
            attrs: std::sync::OnceLock::new(),
        }
    }
    pub(crate) fn set_id(&self, id: NodeId) {
        let packed = (id.generation as u64) << 32 | id.index as u64;
        self.id.store(packed, Ordering::Release);
    }
    pub fn id(&self) -> NodeId {
        let p = self.id.load(Ordering::Acquire);
        NodeId {
            index: p as u32,
            generation: (p >> 32) as u32,
        }
    }
    /// Change the node's hooks (all additions go through here).
    pub fn edit_hooks<R>(&self, f: impl FnOnce(&mut NodeHooks) -> R) -> R {
        self.has_hooks.store(true, Ordering::Release);
        f(&mut lock(&self.hooks))
    }
    /// Keep `obj` (used by the node's backward) where the binding layer's traversal finds it.
    pub fn keep_object(&self, obj: BindingObject) {
        lock(&self.hooks).objects.push((0, obj));
    }
    /// Counted references to the node (`NodeRef`s): 1 means only one holder is left.
    pub fn ref_count(&self) -> u32 {
        self.refs.load(Ordering::Acquire)
    }
    pub fn has_hooks(&self) -> bool {
        self.has_hooks.load(Ordering::Acquire)
    }
    pub fn is_accumulate_grad(&self) -> bool {
        matches!(self.kind, NodeKind::AccumulateGrad(_))
    }
    /// `Exp` for `ExpBackward0`, `Pow1` for `PowBackward1`: how version errors name the node.
    pub fn short_name(&self) -> String {
        short_op_name(&self.name)
    }
    pub fn saved_released(&self) -> bool {
        lock(&self.saved).released
    }
    /// Free the saved tensors; only a node that saved something can fail a second pass.
    pub fn release_saved(&self) {
        let mut s = lock(&self.saved);
        // a node whose slots were all left empty (the formulas that read them were not needed)
        // has nothing to free: a second pass through it works, as PyTorch's unpack of a
        // never-assigned SavedVariable does
        if s.tensors
            .iter()
            .any(|st| st.held_by_formula || !matches!(st.value, SavedValue::Absent))
        {
            s.released = true;
            s.tensors.clear();
        }
    }
    /// Set the saved tensors of a node made before they were known (a custom function saves
    /// after its forward ran).
    pub fn set_saved(&self, tensors: Vec<SavedTensor>) {
        let mut s = lock(&self.saved);
        s.tensors = tensors;
        s.released = false;
        s.user_order = true;
    }
    pub fn has_saved(&self) -> bool {
        let s = lock(&self.saved);
        s.released || !s.tensors.is_empty()
    }

    /// The saved tensors, checked against their versions; outputs get this node as `grad_fn`
    /// again when `attach` (create_graph) asks for it.
    pub fn unpack_saved(self_ref: &NodeRef, attach: bool) -> Result<Vec<Tensor>> {
        let items: Vec<SavedFields> = {
            let s = lock(&self_ref.saved);
            if s.released {
                return Err(Error::Runtime(SECOND_BACKWARD.into()));
            }
            // The common case, every tensor kept as it is: no user code to run, read them here.
            if s.tensors
                .iter()
                .all(|st| matches!(st.value, SavedValue::Tensor(_)))
            {
                for i in saved_order(&s.tensors, s.user_order) {
                    let st = &s.tensors[i];
                    let SavedValue::Tensor(t) = &st.value else {
                        unreachable!("checked above")
                    };
                    check_saved(
                        self_ref,
                        t,
                        st.version,
                        st.is_output,
                        st.output_nr,
                        st.had_grad_fn,
                        st.view_owner.as_deref(),
                    )?;
                }
                let mut out = Vec::with_capacity(s.tensors.len());
                for st in &s.tensors {
                    let SavedValue::Tensor(t) = &st.value else {
                        unreachable!("checked above")
                    };
                    if st.is_output && attach && st.output_nr != NON_DIFFERENTIABLE_OUTPUT {
                        out.push(t.alias_with_grad_fn(self_ref.clone(), st.output_nr));
                    } else {
                        out.push(t.clone());
                    }
                }
                return Ok(out);
            }
            saved_order(&s.tensors, s.user_order)
                .into_iter()
                .map(|i| {
                    let st = &s.tensors[i];
                    (
                        i,
                        st.value.clone(),
                        st.edge.clone(),
                        st.version,
                        st.is_output,
                        st.output_nr,
                        st.had_grad_fn,
                        st.view_owner.clone(),
                    )
                })
                .collect()
        };
        // (the lock is released: unpack hooks run user code), in PyTorch's order; the formula
        // reads them by position
        let mut out: Vec<Option<Tensor>> = vec![None; items.len()];
        for (i, value, edge, version, is_output, output_nr, had_grad_fn, view_owner) in items {
            let t = match value {
                SavedValue::Tensor(t) => {
                    check_saved(
                        self_ref,
                        &t,
                        version,
                        is_output,
                        output_nr,
                        had_grad_fn,
                        view_owner.as_deref(),
                    )?;
                    t
                }
                SavedValue::Packed(p) => {
                    let t = p.unpack()?;
                    match edge {
                        Some(e) if attach && !is_output => t.alias_with_edge(&e),
                        _ => t,
                    }
                }
                // a placeholder the formula does not read (filled in below)
                SavedValue::Absent => continue,
            };
            out[i] = Some(
                if is_output && attach && output_nr != NON_DIFFERENTIABLE_OUTPUT {
                    t.alias_with_grad_fn(self_ref.clone(), output_nr)
                } else {
                    t
                },
            );
        }
        // An absent slot is never read: any saved tensor stands in for it (no allocation).
        let filler = match out.iter().flatten().next() {
            Some(t) => t.clone(),
            None if out.is_empty() => return Ok(Vec::new()),
            None => Tensor::from_vec(Vec::<f32>::new(), &[0])?,
        };
        Ok(out
            .into_iter()
            .map(|t| t.unwrap_or_else(|| filler.clone()))
            .collect())
    }
}

/// A saved tensor's fields, read under the lock (unpack hooks run user code after it).
type SavedFields = (
    usize,
    SavedValue,
    Option<Edge>,
    u32,
    bool,
    u32,
    bool,
    Option<String>,
);

/// PyTorch's checks when a saved tensor is unpacked, in its order: a saved input's grad_fn is
/// asked for (a stale view that may not take its base's new history is refused), then whether
/// it was detached in place, then its version.
fn check_saved(
    node: &NodeRef,
    t: &Tensor,
    version: u32,
    is_output: bool,
    output_nr: u32,
    had_grad_fn: bool,
    view_owner: Option<&str>,
) -> Result<()> {
    if !is_output && t.is_view() {
        t.try_grad_fn()?;
    }
    check_not_detached(t, had_grad_fn)?;
    let owner = if is_output {
        Some(view_owner.map_or_else(|| node.short_name(), str::to_string))
    } else {
        None
    };
    check_version(t, version, output_nr, owner)
}

/// PyTorch's error for a saved input whose history was cut in place (`detach_()`) since.
fn check_not_detached(t: &Tensor, had_grad_fn: bool) -> Result<()> {
    if had_grad_fn && t.meta().grad_fn.is_none() {
        return Err(Error::Runtime("Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not supported, please use out-of-place `.detach()` instead".into()));
    }
    Ok(())
}

/// PyTorch's error for a saved tensor modified in place since it was saved.
/// `owner`: the name an output is output `output_nr` of (an input's is its grad_fn's).
fn check_version(t: &Tensor, version: u32, output_nr: u32, owner: Option<String>) -> Result<()> {
    let cur = t.version();
    if cur == version {
        return Ok(());
    }
    let owner = owner.or_else(|| t.grad_fn().map(|g| g.short_name()));
    let which = match owner {
        Some(n) => format!(", which is output {} of {},", output_nr, n),
        None => String::new(),
    };
    Err(Error::Runtime(format!(
        "one of the variables needed for gradient computation has been modified by an inplace operation: [{} {}]{} is at version {}; expected version {} instead. {}",
        t.dtype().legacy_type_name(),
        fmt_shape(&t.shape()),
        which,
        cur,
        version,
        ANOMALY_HINT
    )))
}

pub fn short_op_name(name: &str) -> String {
    if let Some(pos) = name.rfind("Backward") {
        let suffix = &name[pos + 8..];
        if !suffix.is_empty() && suffix.chars().all(|c| c.is_ascii_digit()) {
            let base = &name[..pos];
            return if suffix == "0" {
                base.to_string()
            } else {
                format!("{}{}", base, suffix)
            };
        }
    }
    name.to_string()
}

pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
