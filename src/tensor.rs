//! The tensor record: data (storage, layout, dtype, version counter) and autograd metadata
//! (requires_grad, grad, grad_fn, hooks). `Tensor` is a cheap counted handle to one record.
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::graph::arena::{self, NodeRef};
use crate::graph::node::{lock, TensorHook};
use crate::shape::{contiguous_strides, is_contiguous, numel, Shape, Strides};
use crate::storage::Storage;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock, RwLockReadGuard};

/// How a view whose base (or a sibling view) was written in place since it was made takes its
/// current history: `ops::refresh_view`, installed by the autograd layer (`ops`) when it first
/// moves a version counter on, as PyTorch's autograd installs its `VariableHooks` into the tensor
/// library. Until then no view can be stale, so the tensor layer needs no call upwards.
static VIEW_REFRESH: OnceLock<fn(&Tensor) -> Result<()>> = OnceLock::new();

/// Install the view refresh (the first call wins; `ops` is the only caller).
pub fn install_view_refresh(refresh: fn(&Tensor) -> Result<()>) {
    let _ = VIEW_REFRESH.set(refresh);
}

pub struct TensorData {
    pub storage: Arc<Storage>,
    pub shape: Shape,
    pub strides: Strides,
    /// In elements.
    pub offset: usize,
    pub dtype: DType,
    /// `None`: the storage's own counter (shared by views and detach()); `.data` aliases get a
    /// counter of their own.
    pub version: Option<Arc<AtomicU32>>,
    /// The tensor this one is a view of (always the root, never a view itself).
    pub base: Option<Tensor>,
    /// A Python number wrapped as a 0-d tensor: lowest priority in type promotion.
    pub wrapped_number: bool,
}

// By hand: SmallVec's derived clone goes element by element; shapes are copied with memcpy.
impl Clone for TensorData {
    fn clone(&self) -> TensorData {
        TensorData {
            storage: self.storage.clone(),
            shape: Shape::from_slice(&self.shape),
            strides: Strides::from_slice(&self.strides),
            offset: self.offset,
            dtype: self.dtype,
            version: self.version.clone(),
            base: self.base.clone(),
            wrapped_number: self.wrapped_number,
        }
    }
}

impl TensorData {
    pub fn numel(&self) -> usize {
        numel(&self.shape)
    }
    pub fn is_contiguous(&self) -> bool {
        is_contiguous(&self.shape, &self.strides)
    }
    /// The elements in logical order, when the layout allows a plain slice.
    ///
    /// # Safety
    /// `T` must match `dtype`.
    pub unsafe fn contiguous_slice<T: Element>(&self) -> Option<&[T]> {
        if !self.storage.is_host() {
            return None;
        }
        if self.is_contiguous() {
            let n = self.numel();
            if n == 0 {
                return Some(&[]);
            }
            let s = self.storage.slice::<T>();
            Some(&s[self.offset..self.offset + n])
        } else {
            None
        }
    }
}

pub type PostAccHook = Arc<dyn Fn(&Tensor) -> Result<()> + Send + Sync>;

#[derive(Default)]
pub struct AutogradMeta {
    /// Set by the user on leaves; non-leaves require grad because they have a grad_fn.
    pub requires_grad: bool,
    pub grad: Option<Tensor>,
    pub grad_fn: Option<NodeRef>,
    pub output_nr: u32,
    pub retains_grad: bool,
    /// The leaf's AccumulateGrad node, uncounted: it lives while some graph uses it.
    pub grad_acc: Option<std::sync::Weak<crate::graph::node::Node>>,
    pub hooks: Vec<(u64, TensorHook)>,
    pub post_acc_hooks: Vec<(u64, PostAccHook)>,
    /// What the binding layer's hooks on this tensor hold, by hook id (see `NodeHooks::objects`).
    pub hook_objects: Vec<(u64, crate::graph::node::BindingObject)>,
    pub is_inference: bool,
    /// An inference tensor with a version counter of its own: `detach()` of one outside
    /// inference mode (PyTorch gives it one, so it may be written in place there).
    pub inference_versioned: bool,
    /// `grad_dtype`: None means "any dtype"; default is the tensor's dtype.
    pub grad_dtype_any: bool,
    /// How the tensor came to be, for `leafgrad.explain` (PyTorch keeps no such record).
    pub origin: Origin,
    /// Grad mode was off when the tensor was made (no_grad / set_grad_enabled(False)).
    pub made_without_grad: bool,
    /// Made by `conj()` (PyTorch's lazy conjugate bit; leafgrad materialises the values).
    pub is_conj: bool,
    /// For a view: how it was made, which decides whether it may be written in place.
    pub view_creation: CreationMeta,
    /// For a view: the version its grad_fn was made for. When the base or another view of it
    /// is written in place, the version moves on and the grad_fn is made again from the base's.
    pub attr_version: u32,
    /// The tangent at the open forward-AD level (see `forward_ad`).
    pub fw_grad: Option<Tensor>,
}

/// How a view was made (PyTorch's CreationMeta). Only `Default` views may be written in place
/// while autograd records, or have their base written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CreationMeta {
    #[default]
    Default,
    /// Made under `no_grad` (its base may require grad).
    NoGradMode,
    /// Made under `inference_mode` from a normal tensor.
    InferenceMode,
    /// One of several views one function returns (`unbind`, `split`, `chunk`).
    MultiOutputNode,
    /// Returned by a custom Function's forward.
    InCustomFunction,
}

impl CreationMeta {
    /// What a view made now is: decided by the grad mode.
    pub fn now() -> CreationMeta {
        if crate::grad_mode::is_inference_mode() {
            CreationMeta::InferenceMode
        } else if crate::grad_mode::is_grad_enabled() {
            CreationMeta::Default
        } else {
            CreationMeta::NoGradMode
        }
    }

    /// A view of a view keeps the stricter kind (PyTorch's propagate_creation_meta).
    pub fn propagate(prev: CreationMeta, new: CreationMeta) -> CreationMeta {
        if new == CreationMeta::Default || prev == CreationMeta::InferenceMode {
            prev
        } else {
            new
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    #[default]
    Other,
    /// `detach()` of another tensor.
    Detach,
    /// `.data` of another tensor.
    Data,
    /// `detach_()` cut its history in place.
    DetachInPlace,
}

pub struct TensorImpl {
    data: RwLock<TensorData>,
    meta: Mutex<AutogradMeta>,
    /// Opaque slot for the binding layer (the address of this tensor's Python object).
    pub binding: AtomicUsize,
}

impl Drop for TensorImpl {
    fn drop(&mut self) {
        arena::tensor_dropped();
    }
}

#[derive(Clone)]
pub struct Tensor(pub Arc<TensorImpl>);

/// Set once any inference tensor exists, so ops skip the per-input check until then.
static INFERENCE_TENSORS_MADE: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

pub fn inference_tensors_exist() -> bool {
    INFERENCE_TENSORS_MADE.load(Ordering::Relaxed)
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tensor({:?}, {:?})",
            self.dtype(),
            self.shape().as_slice()
        )
    }
}

impl Tensor {
    pub fn from_data(data: TensorData) -> Tensor {
        arena::tensor_created();
        let is_inference = crate::grad_mode::is_inference_mode();
        if is_inference {
            INFERENCE_TENSORS_MADE.store(true, Ordering::Relaxed);
        }
        Tensor(Arc::new(TensorImpl {
            data: RwLock::new(data),
            meta: Mutex::new(AutogradMeta {
                is_inference,
                made_without_grad: !crate::grad_mode::is_grad_enabled(),
                ..Default::default()
            }),
            binding: AtomicUsize::new(0),
        }))
    }

    pub fn from_storage(storage: Storage, shape: &[usize], dtype: DType) -> Tensor {
        Tensor::from_data(TensorData {
            storage: Arc::new(storage),
            strides: contiguous_strides(shape),
            shape: shape.into(),
            offset: 0,
            dtype,
            version: None,
            base: None,
            wrapped_number: false,
        })
    }

    pub fn from_vec<T: Element>(v: Vec<T>, shape: &[usize]) -> Result<Tensor> {
        if v.len() != numel(shape) {
            return Err(Error::Runtime(format!(
                "shape '{}' is invalid for input of size {}",
                crate::shape::fmt_shape(shape),
                v.len()
            )));
        }
        Ok(Tensor::from_storage(Storage::from_vec(v), shape, T::DTYPE))
    }

    pub fn zeros(shape: &[usize], dtype: DType) -> Result<Tensor> {
        let n = crate::shape::checked_numel(shape)?
            .checked_mul(dtype.size())
            .ok_or_else(|| Error::Runtime("Storage size calculation overflowed".into()))?;
        Ok(Tensor::from_storage(Storage::zeroed(n)?, shape, dtype))
    }

    /// A tensor on the meta device: its shape and dtype, no memory.
    pub fn on_meta(shape: &[usize], dtype: DType) -> Result<Tensor> {
        crate::shape::checked_numel(shape)?
            .checked_mul(dtype.size())
            .ok_or_else(|| Error::Runtime("Storage size calculation overflowed".into()))?;
        Ok(Tensor::from_storage(Storage::meta(), shape, dtype))
    }

    /// Where the tensor's memory lives.
    pub fn device(&self) -> crate::device::Device {
        self.data().storage.device()
    }
    pub fn is_cuda(&self) -> bool {
        self.data().storage.is_cuda()
    }

    pub fn scalar<T: Element>(v: T) -> Tensor {
        Tensor::from_storage(Storage::from_vec(vec![v]), &[], T::DTYPE)
    }

    /// A Python number as a 0-d tensor that promotes like a scalar.
    pub fn wrapped_scalar<T: Element>(v: T) -> Tensor {
        Tensor::from_data(TensorData {
            storage: Arc::new(Storage::from_vec(vec![v])),
            strides: Strides::new(),
            shape: Shape::new(),
            offset: 0,
            dtype: T::DTYPE,
            version: None,
            base: None,
            wrapped_number: true,
        })
    }
    pub fn priority(&self) -> crate::dtype::Priority {
        let d = self.data();
        if d.wrapped_number {
            crate::dtype::Priority::Scalar
        } else if d.shape.is_empty() {
            crate::dtype::Priority::ZeroDim
        } else {
            crate::dtype::Priority::Dim
        }
    }
    /// dtype, promotion priority and shape, read under one lock.
    pub fn info(&self) -> (DType, crate::dtype::Priority, Shape) {
        let d = self.data();
        let p = if d.wrapped_number {
            crate::dtype::Priority::Scalar
        } else if d.shape.is_empty() {
            crate::dtype::Priority::ZeroDim
        } else {
            crate::dtype::Priority::Dim
        };
        (d.dtype, p, d.shape.clone())
    }

    pub fn ptr_eq(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
    pub fn data(&self) -> RwLockReadGuard<'_, TensorData> {
        self.0.data.read().unwrap_or_else(|e| e.into_inner())
    }
    pub fn meta(&self) -> MutexGuard<'_, AutogradMeta> {
        lock(&self.0.meta)
    }
    /// The autograd metadata if no one else holds its lock now (for the garbage collector's
    /// traversal, which must not block).
    pub fn try_meta(&self) -> Option<MutexGuard<'_, AutogradMeta>> {
        self.0.meta.try_lock().ok()
    }
    /// Swap the data (`t.data = other`): identity and autograd metadata stay.
    pub fn set_data(&self, d: TensorData) {
        *self.0.data.write().unwrap_or_else(|e| e.into_inner()) = d;
    }

    /// `t.data = src` with PyTorch's rules: meta and real data do not mix (CPU and CUDA dense
    /// tensors do), and a tensor that requires grad keeps a float or complex dtype.
    pub fn assign_data(&self, src: &Tensor) -> Result<()> {
        if self.device().is_meta() != src.device().is_meta() {
            return Err(Error::Runtime(
                "Attempted to call `variable.set_data(tensor)`, but `variable` and `tensor` have incompatible tensor type.".into(),
            ));
        }
        if self.requires_grad() && !src.dtype().is_differentiable() {
            return Err(Error::Runtime(
                "data set to a tensor that requires gradients must be floating point or complex dtype".into(),
            ));
        }
        let mut d = src.data().clone();
        // `x.data = y` keeps x's version counter (shared with x's views), as PyTorch
        {
            let old = self.data();
            d.version = Some(
                old.version
                    .clone()
                    .unwrap_or_else(|| old.storage.version.clone()),
            );
        }
        self.set_data(d);
        Ok(())
    }

    /// `t.grad = g` with PyTorch's checks: not itself, its grad_dtype (the tensor's dtype unless
    /// `grad_dtype = None`), its device type and its size.
    pub fn assign_grad(&self, g: Option<Tensor>) -> Result<()> {
        let Some(g) = g else {
            self.meta().grad = None;
            return Ok(());
        };
        if g.ptr_eq(self) {
            return Err(Error::Runtime(
                "can't assign Variable as its own grad".into(),
            ));
        }
        let (gd, td) = (g.dtype(), self.dtype());
        if gd != td && !self.meta().grad_dtype_any {
            return Err(Error::Runtime(format!(
                "attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that assume they match.",
                gd.cpp_name(),
                td.scalar_type_name()
            )));
        }
        let (gdev, tdev) = (g.device(), self.device());
        if gdev != tdev {
            let kind = |d: crate::device::Device| match d {
                crate::device::Device::Cuda(_) => "cuda",
                crate::device::Device::Meta => "meta",
                crate::device::Device::Cpu => "cpu",
            };
            return Err(Error::Runtime(format!(
                "attempting to assign a gradient with device type '{}' to a tensor with device type '{}'. Please ensure that the gradient and the tensor are on the same device",
                kind(gdev),
                kind(tdev)
            )));
        }
        let (gs, ts) = (g.shape(), self.shape());
        if gs != ts {
            return Err(Error::Runtime(format!(
                "attempting to assign a gradient of size '{}' to a tensor of size '{}'. Please ensure that the gradient and the tensor are the same size",
                crate::shape::fmt_shape(&gs),
                crate::shape::fmt_shape(&ts)
            )));
        }
        self.meta().grad = Some(g);
        Ok(())
    }

    /// Add a hook run after `.grad` is accumulated into this leaf; PyTorch's errors for a tensor
    /// that does not require grad or is not a leaf. `id` is what removes it.
    pub fn add_post_accumulate_grad_hook(&self, id: u64, hook: PostAccHook) -> Result<()> {
        if !self.requires_grad() {
            return Err(Error::Runtime(
                "cannot register a hook on a tensor that doesn't require gradient".into(),
            ));
        }
        if !self.is_leaf() {
            return Err(Error::Runtime(
                "post accumulate grad hooks cannot be registered on non-leaf tensors".into(),
            ));
        }
        self.meta().post_acc_hooks.push((id, hook));
        Ok(())
    }

    pub fn shape(&self) -> Shape {
        Shape::from_slice(&self.data().shape)
    }
    pub fn strides(&self) -> Strides {
        Strides::from_slice(&self.data().strides)
    }
    pub fn dtype(&self) -> DType {
        self.data().dtype
    }
    pub fn numel(&self) -> usize {
        self.data().numel()
    }
    pub fn ndim(&self) -> usize {
        self.data().shape.len()
    }
    pub fn is_contiguous(&self) -> bool {
        self.data().is_contiguous()
    }
    pub fn version(&self) -> u32 {
        let d = self.data();
        d.version
            .as_deref()
            .unwrap_or(&*d.storage.version)
            .load(Ordering::Relaxed)
    }
    /// Move the version counter on. In-place writes go through `ops::mark_written`, which
    /// also installs the view refresh ([`install_view_refresh`]).
    pub(crate) fn bump_version(&self) {
        let d = self.data();
        d.version
            .as_deref()
            .unwrap_or(&*d.storage.version)
            .fetch_add(1, Ordering::Relaxed);
    }
    pub fn is_view(&self) -> bool {
        self.data().base.is_some()
    }
    pub fn base(&self) -> Option<Tensor> {
        self.data().base.clone()
    }

    /// Set by the user, or a grad_fn, or (for a view) its base requires grad: a view made under
    /// `no_grad` of a tensor that requires grad requires grad too, as in PyTorch.
    pub fn requires_grad(&self) -> bool {
        {
            let m = self.meta();
            if m.requires_grad || m.grad_fn.is_some() {
                return true;
            }
            if m.is_inference {
                // a view of an inference tensor is not a differentiable view
                return false;
            }
        }
        self.data().base.as_ref().is_some_and(|b| b.requires_grad())
    }
    /// The grad_fn; a view whose base (or another view of it) was written in place since gets a
    /// new one first (AsStridedBackward0 from its base's). A view that may not be rebased keeps
    /// its old one here: `ops::refresh_view` says why.
    pub fn grad_fn(&self) -> Option<NodeRef> {
        if self.is_view() {
            if let Some(refresh) = VIEW_REFRESH.get() {
                let _ = refresh(self);
            }
        }
        self.meta().grad_fn.clone()
    }
    /// [`Tensor::grad_fn`], with the error of a view that may not take its base's new history
    /// (made under no_grad, one of several outputs, ...) raised rather than ignored.
    pub fn try_grad_fn(&self) -> Result<Option<NodeRef>> {
        if self.is_view() {
            if let Some(refresh) = VIEW_REFRESH.get() {
                refresh(self)?;
            }
        }
        Ok(self.meta().grad_fn.clone())
    }
    pub fn is_leaf(&self) -> bool {
        self.grad_fn().is_none()
    }
    pub fn output_nr(&self) -> u32 {
        self.meta().output_nr
    }
    pub fn grad(&self) -> Option<Tensor> {
        self.meta().grad.clone()
    }
    /// Has a gradient edge of its own (PyTorch's `should_compute_output`): a grad_fn, or the
    /// flag set on a leaf. A view made under `no_grad` of a tensor that requires grad requires
    /// grad but has neither (its gradient goes nowhere).
    pub fn has_grad_edge(&self) -> bool {
        {
            let m = self.meta();
            if m.requires_grad || m.grad_fn.is_some() {
                return true;
            }
        }
        // a view whose base was written in place since takes its new history first (as
        // `ops::gradient_edge` does)
        self.is_view() && self.grad_fn().is_some()
    }
    pub fn is_inference(&self) -> bool {
        self.meta().is_inference
    }
    pub fn retains_grad(&self) -> bool {
        self.meta().retains_grad
    }

    /// A tensor over the same storage with another layout (a view): shares the version counter.
    pub fn view_with(&self, shape: &[usize], strides: &[isize], offset: usize) -> Tensor {
        let (base, parent) = match self.data().base.clone() {
            Some(b) => (b, self.meta().view_creation),
            None => (self.clone(), CreationMeta::Default),
        };
        let inference = self.is_inference();
        // A view of an inference tensor is an inference tensor and not a view (`_base` is None;
        // PyTorch tracks no view relation for them), a view of a normal one made in inference
        // mode a normal one.
        let t = self.relayout(shape, strides, offset, (!inference).then_some(base));
        t.init_view_meta(parent, inference);
        t
    }

    /// A new view's autograd state: made now (in this grad mode) from a view made as `parent`,
    /// its grad_fn (none yet) current at this version.
    pub(crate) fn init_view_meta(&self, parent: CreationMeta, inference: bool) {
        let version = self.version();
        let mut m = self.meta();
        m.is_inference = inference;
        m.view_creation = CreationMeta::propagate(parent, CreationMeta::now());
        m.attr_version = version;
    }

    /// How this tensor was made as a view (`Default` for a tensor that is not one).
    pub fn view_creation(&self) -> CreationMeta {
        if self.is_view() {
            self.meta().view_creation
        } else {
            CreationMeta::Default
        }
    }

    /// This memory seen with another layout, for the kernels' own operands and results: no
    /// view relation, no history.
    pub fn restrided(&self, shape: &[usize], strides: &[isize], offset: usize) -> Tensor {
        self.relayout(shape, strides, offset, None)
    }

    fn relayout(
        &self,
        shape: &[usize],
        strides: &[isize],
        offset: usize,
        base: Option<Tensor>,
    ) -> Tensor {
        let d = self.data();
        Tensor::from_data(TensorData {
            storage: d.storage.clone(),
            shape: shape.into(),
            strides: strides.into(),
            offset,
            dtype: d.dtype,
            version: d.version.clone(),
            base,
            wrapped_number: false,
        })
    }

    /// The same storage and version counter read as `dtype` with this layout: no autograd
    /// history and not a view (`view(dtype)`, which PyTorch keeps out of autograd).
    pub fn reinterpreted(
        &self,
        dtype: DType,
        shape: &[usize],
        strides: &[isize],
        offset: usize,
    ) -> Tensor {
        let mut d = self.data().clone();
        d.base = None;
        d.wrapped_number = false;
        d.dtype = dtype;
        d.shape = shape.into();
        d.strides = strides.into();
        d.offset = offset;
        Tensor::from_data(d)
    }

    /// Same storage, layout and version counter; no autograd history, not a view (`detach()`).
    pub fn detached(&self) -> Tensor {
        let mut d = self.data().clone();
        d.base = None;
        let inference = self.is_inference();
        let versioned = inference && !crate::grad_mode::is_inference_mode();
        if versioned {
            d.version = Some(Arc::new(AtomicU32::new(0)));
        }
        let t = Tensor::from_data(d);
        {
            let mut m = t.meta();
            m.origin = Origin::Detach;
            // detach() is a view: of an inference tensor an inference tensor, of a normal one a
            // normal one, in any mode (PyTorch)
            m.is_inference = inference;
            m.inference_versioned = versioned;
        }
        t
    }

    /// An inference tensor that tracks no version counter (all but `detach()`'s outside
    /// inference mode): it may not be written outside inference mode.
    pub fn is_unversioned_inference(&self) -> bool {
        let m = self.meta();
        m.is_inference && !m.inference_versioned
    }

    /// Same storage and layout with a fresh version counter (`.data`).
    pub fn data_alias(&self) -> Tensor {
        let mut d = self.data().clone();
        d.base = None;
        d.version = Some(Arc::new(AtomicU32::new(0)));
        let t = Tensor::from_data(d);
        t.meta().origin = Origin::Data;
        t
    }

    /// Saved outputs come back with their node as grad_fn when backward records a graph.
    /// An alias whose gradient goes along `edge`: to a node as its output, or to a leaf's
    /// AccumulateGrad (the alias is then a leaf that requires grad and shares it).
    pub fn alias_with_edge(&self, edge: &crate::graph::node::Edge) -> Tensor {
        let Some(node) = &edge.node else {
            return self.clone();
        };
        if node.is_accumulate_grad() {
            let t = self.detached();
            {
                let mut m = t.meta();
                m.requires_grad = true;
                m.grad_acc = Some(node.downgrade());
            }
            return t;
        }
        self.alias_with_grad_fn(node.clone(), edge.input_nr)
    }

    pub fn alias_with_grad_fn(&self, node: NodeRef, output_nr: u32) -> Tensor {
        let t = self.detached();
        {
            let mut m = t.meta();
            m.grad_fn = Some(node);
            m.output_nr = output_nr;
            m.origin = Origin::Other;
        }
        t
    }
}
