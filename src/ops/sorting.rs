//! Sorting and selection along a dim: sort/argsort/msort, topk, kthvalue, median/nanmedian.
//!
//! The values are read with an index plan (as max/min along a dim), so each op's gradient scatters
//! back to the positions the indices name, and forward AD follows from it. The order among equal
//! elements is PyTorch's CPU order: its kernels run libstdc++'s `std::sort`, `std::nth_element`
//! and `std::partial_sort` (ported in [`stl`]) and TH's quickselect (kthvalue), and which of two
//! equal elements is picked decides where the gradient goes (checked against PyTorch 2.15's
//! wheel on x86-64 for every dtype, ties and NaNs included: tests/python/test_sorting.py).
use super::index::Plan;
use super::*;
use crate::backend;
use crate::dtype::DType;
use crate::shape::wrap_dim;
use std::sync::Arc;

/// A sort key: the element read as f64 (floating dtypes, NaN kept) or i64 (integers and bool).
pub trait Key: Copy + PartialOrd {
    fn nan(self) -> bool;
}
impl Key for f64 {
    fn nan(self) -> bool {
        self.is_nan()
    }
}
impl Key for i64 {
    fn nan(self) -> bool {
        false
    }
}

/// Ascending with NaN last (PyTorch's `KeyValueCompAsc`).
fn asc<K: Key>(a: K, b: K) -> bool {
    (!a.nan() && b.nan()) || a < b
}
/// Descending with NaN first (`KeyValueCompDesc`).
fn desc<K: Key>(a: K, b: K) -> bool {
    (a.nan() && !b.nan()) || a > b
}

/// libstdc++'s (GCC 12) sorting algorithms, step for step, so that equal elements end in the
/// places they do in PyTorch.
pub mod stl {
    const THRESHOLD: usize = 16;

    fn lg(n: usize) -> usize {
        (usize::BITS - 1 - n.leading_zeros()) as usize
    }

    /// `std::sort` (introsort, then a final insertion sort).
    pub fn sort<T: Copy>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
        if v.len() > 1 {
            introsort_loop(v, 0, v.len(), 2 * lg(v.len()), less);
            final_insertion_sort(v, 0, v.len(), less);
        }
    }

    /// `std::nth_element`: `v[nth]` is the element a full sort would put there.
    pub fn nth_element<T: Copy>(v: &mut [T], nth: usize, less: &impl Fn(&T, &T) -> bool) {
        if v.is_empty() || nth >= v.len() {
            return;
        }
        let (mut first, mut last) = (0, v.len());
        let mut depth = 2 * lg(v.len());
        while last - first > 3 {
            if depth == 0 {
                heap_select(v, first, nth + 1, last, less);
                v.swap(first, nth);
                return;
            }
            depth -= 1;
            let cut = unguarded_partition_pivot(v, first, last, less);
            if cut <= nth {
                first = cut;
            } else {
                last = cut;
            }
        }
        insertion_sort(v, first, last, less);
    }

    /// `std::partial_sort`: the `middle` smallest, sorted, in front.
    pub fn partial_sort<T: Copy>(v: &mut [T], middle: usize, less: &impl Fn(&T, &T) -> bool) {
        let last = v.len();
        heap_select(v, 0, middle, last, less);
        sort_heap(v, 0, middle, less);
    }

    fn introsort_loop<T: Copy>(
        v: &mut [T],
        first: usize,
        mut last: usize,
        mut depth: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) {
        while last - first > THRESHOLD {
            if depth == 0 {
                heap_select(v, first, last, last, less);
                sort_heap(v, first, last, less);
                return;
            }
            depth -= 1;
            let cut = unguarded_partition_pivot(v, first, last, less);
            introsort_loop(v, cut, last, depth, less);
            last = cut;
        }
    }

    fn unguarded_partition_pivot<T: Copy>(
        v: &mut [T],
        first: usize,
        last: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) -> usize {
        let mid = first + (last - first) / 2;
        move_median_to_first(v, first, first + 1, mid, last - 1, less);
        unguarded_partition(v, first + 1, last, first, less)
    }

    fn move_median_to_first<T: Copy>(
        v: &mut [T],
        result: usize,
        a: usize,
        b: usize,
        c: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) {
        let pick = if less(&v[a], &v[b]) {
            if less(&v[b], &v[c]) {
                b
            } else if less(&v[a], &v[c]) {
                c
            } else {
                a
            }
        } else if less(&v[a], &v[c]) {
            a
        } else if less(&v[b], &v[c]) {
            c
        } else {
            b
        };
        v.swap(result, pick);
    }

    fn unguarded_partition<T: Copy>(
        v: &mut [T],
        mut first: usize,
        mut last: usize,
        pivot: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) -> usize {
        loop {
            while less(&v[first], &v[pivot]) {
                first += 1;
            }
            last -= 1;
            while less(&v[pivot], &v[last]) {
                last -= 1;
            }
            if first >= last {
                return first;
            }
            v.swap(first, last);
            first += 1;
        }
    }

    fn final_insertion_sort<T: Copy>(
        v: &mut [T],
        first: usize,
        last: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) {
        if last - first > THRESHOLD {
            insertion_sort(v, first, first + THRESHOLD, less);
            for i in first + THRESHOLD..last {
                unguarded_linear_insert(v, i, less);
            }
        } else {
            insertion_sort(v, first, last, less);
        }
    }

    fn insertion_sort<T: Copy>(
        v: &mut [T],
        first: usize,
        last: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) {
        if first == last {
            return;
        }
        for i in first + 1..last {
            if less(&v[i], &v[first]) {
                let val = v[i];
                v.copy_within(first..i, first + 1);
                v[first] = val;
            } else {
                unguarded_linear_insert(v, i, less);
            }
        }
    }

    fn unguarded_linear_insert<T: Copy>(
        v: &mut [T],
        mut last: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) {
        let val = v[last];
        let mut next = last - 1;
        while less(&val, &v[next]) {
            v[last] = v[next];
            last = next;
            next -= 1;
        }
        v[last] = val;
    }

    fn heap_select<T: Copy>(
        v: &mut [T],
        first: usize,
        middle: usize,
        last: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) {
        make_heap(v, first, middle, less);
        for i in middle..last {
            if less(&v[i], &v[first]) {
                pop_heap(v, first, middle, i, less);
            }
        }
    }

    fn make_heap<T: Copy>(v: &mut [T], first: usize, last: usize, less: &impl Fn(&T, &T) -> bool) {
        let len = last - first;
        if len < 2 {
            return;
        }
        let mut parent = (len - 2) / 2;
        loop {
            let value = v[first + parent];
            adjust_heap(v, first, parent, len, value, less);
            if parent == 0 {
                return;
            }
            parent -= 1;
        }
    }

    fn pop_heap<T: Copy>(
        v: &mut [T],
        first: usize,
        last: usize,
        result: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) {
        let value = v[result];
        v[result] = v[first];
        adjust_heap(v, first, 0, last - first, value, less);
    }

    fn sort_heap<T: Copy>(
        v: &mut [T],
        first: usize,
        mut last: usize,
        less: &impl Fn(&T, &T) -> bool,
    ) {
        while last - first > 1 {
            last -= 1;
            pop_heap(v, first, last, last, less);
        }
    }

    fn adjust_heap<T: Copy>(
        v: &mut [T],
        first: usize,
        mut hole: usize,
        len: usize,
        value: T,
        less: &impl Fn(&T, &T) -> bool,
    ) {
        let top = hole;
        let mut child = hole;
        while len >= 1 && child < (len - 1) / 2 {
            child = 2 * (child + 1);
            if less(&v[first + child], &v[first + child - 1]) {
                child -= 1;
            }
            v[first + hole] = v[first + child];
            hole = child;
        }
        if len & 1 == 0 && len >= 2 && child == (len - 2) / 2 {
            child = 2 * (child + 1);
            v[first + hole] = v[first + child - 1];
            hole = child - 1;
        }
        // push_heap
        while hole > top {
            let parent = (hole - 1) / 2;
            if !less(&v[first + parent], &value) {
                break;
            }
            v[first + hole] = v[first + parent];
            hole = parent;
        }
        v[first + hole] = value;
    }

    /// TH's quickselect (Sedgewick's partition, median of three), which PyTorch's CPU kthvalue
    /// runs: afterwards `v[k]` is the k-th smallest under `gt`'s order.
    pub fn quick_select<T: Copy>(v: &mut [T], k: usize, gt: &impl Fn(&T, &T) -> bool) {
        if v.is_empty() {
            return;
        }
        let (mut l, mut r) = (0usize, v.len() - 1);
        loop {
            if r <= l {
                return;
            }
            if r == l + 1 {
                if gt(&v[l], &v[r]) {
                    v.swap(l, r);
                }
                return;
            }
            let p = (l + r) >> 1;
            v.swap(p, l + 1);
            if gt(&v[l + 1], &v[r]) {
                v.swap(l + 1, r);
            }
            if gt(&v[l], &v[r]) {
                v.swap(l, r);
            }
            if gt(&v[l + 1], &v[l]) {
                v.swap(l + 1, l);
            }
            let (mut i, mut j) = (l + 1, r);
            let piv = v[l];
            loop {
                loop {
                    i += 1;
                    if !gt(&piv, &v[i]) {
                        break;
                    }
                }
                loop {
                    j -= 1;
                    if !gt(&v[j], &piv) {
                        break;
                    }
                }
                if j < i {
                    break;
                }
                v.swap(i, j);
            }
            v.swap(l, j);
            if j <= k {
                l = i;
            }
            if j >= k {
                if j == 0 {
                    return;
                }
                r = j - 1;
            }
        }
    }
}

/// The rows along `dim`: (outer, size, inner); element `j` of row `(o, i)` is at flat
/// `(o * size + j) * inner + i`. A 0-d tensor is one row of one element.
fn rows(shape: &[usize], d: usize) -> (usize, usize, usize) {
    if shape.is_empty() {
        return (1, 1, 1);
    }
    let outer = shape[..d].iter().product();
    let inner = shape[d + 1..].iter().product();
    (outer, shape[d], inner)
}

/// Runs `pick` on every row (the keys in order along `dim`), which returns the positions it
/// selects (`k` of them, in output order); gives the flat plan of the selected elements and
/// their positions, laid out with `dim` of size `k`.
fn select_rows<K: Key>(
    keys: &[K],
    shape: &[usize],
    d: usize,
    k: usize,
    mut pick: impl FnMut(&[K]) -> Vec<usize>,
) -> (Vec<usize>, Vec<i64>) {
    let (outer, size, inner) = rows(shape, d);
    let mut plan = vec![0usize; outer * k * inner];
    let mut pos = vec![0i64; outer * k * inner];
    let mut row = Vec::with_capacity(size);
    for o in 0..outer {
        for i in 0..inner {
            row.clear();
            row.extend((0..size).map(|j| keys[(o * size + j) * inner + i]));
            let chosen = pick(&row);
            for (t, &j) in chosen.iter().enumerate() {
                let at = (o * k + t) * inner + i;
                plan[at] = (o * size + j) * inner + i;
                pos[at] = j as i64;
            }
        }
    }
    (plan, pos)
}

/// The keys of `x` in logical order (f64 for floating dtypes, i64 for the rest).
enum Keys {
    Float(Vec<f64>),
    Int(Vec<i64>),
}

fn keys_of(x: &Tensor) -> Result<Keys> {
    if x.device().is_meta() {
        return Ok(Keys::Int(vec![0; x.numel()])); // shapes only: the meta backend reads no plan
    }
    Ok(if x.dtype().is_floating() {
        Keys::Float(x.try_to_vec::<f64>()?)
    } else {
        Keys::Int(x.try_to_vec::<i64>()?)
    })
}

/// The selecting op's results: values read through `plan` recording `name` (its gradient
/// scatters back through the plan), and the positions as an int64 tensor on `x`'s device.
fn finish(
    x: &Tensor,
    plan: Vec<usize>,
    pos: Vec<i64>,
    shape: &[usize],
    name: &'static str,
) -> Result<(Tensor, Tensor)> {
    let plan: Plan = Arc::new(plan);
    let values = backend::take(x, &plan, shape)?;
    let mut indices = Tensor::from_vec(pos, shape)?;
    if x.device() != indices.device() {
        indices = backend::to_device(&indices, x.device())?;
    }
    if needs_grad(&[x])? {
        let xs = x.shape();
        record(
            name,
            &[x],
            &[&values],
            vec![save("indices", &indices)?],
            Box::new(move |_, g| crate::grads![super::index::put_add(&xs, &plan, &g[0])?]),
        )?;
    }
    Ok((values, indices))
}

fn no_complex(x: &Tensor, msg: impl FnOnce(&str) -> Error) -> Result<()> {
    if x.dtype().is_complex() {
        return Err(msg(x.dtype().scalar_type_name()));
    }
    Ok(())
}

/// `x.sort(dim, descending, stable)`: (values, indices); SortBackward0 (SortBackward1 for the
/// `stable=` overload).
pub fn sort(
    x: &Tensor,
    dim: i64,
    descending: bool,
    stable: Option<bool>,
) -> Result<(Tensor, Tensor)> {
    no_complex(x, |_| {
        Error::Type(" Sort does not support complex dtypes on CPU".into())
    })?;
    let d = wrap_dim(dim, x.ndim().max(1))?;
    let shape = x.shape();
    let size = rows(&shape, d).1;
    let stable_order = stable.unwrap_or(false);
    fn run<K: Key>(row: &[K], descending: bool, stable: bool) -> Vec<usize> {
        let mut v: Vec<(K, usize)> = row.iter().copied().zip(0..).collect();
        let less = |a: &(K, usize), b: &(K, usize)| {
            if descending {
                desc(a.0, b.0)
            } else {
                asc(a.0, b.0)
            }
        };
        if stable {
            v.sort_by(|a, b| {
                if less(a, b) {
                    std::cmp::Ordering::Less
                } else if less(b, a) {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            });
        } else {
            stl::sort(&mut v, &less);
        }
        v.into_iter().map(|(_, j)| j).collect()
    }
    let (plan, pos) = match keys_of(x)? {
        Keys::Float(k) => select_rows(&k, &shape, d, size, |r| run(r, descending, stable_order)),
        Keys::Int(k) => select_rows(&k, &shape, d, size, |r| run(r, descending, stable_order)),
    };
    let name = if stable.is_some() {
        "SortBackward1"
    } else {
        "SortBackward0"
    };
    finish(x, plan, pos, &shape, name)
}

/// `x.topk(k, dim, largest, sorted)`: the `k` largest (or smallest) along `dim` (TopkBackward0).
pub fn topk(x: &Tensor, k: i64, dim: i64, largest: bool, sorted: bool) -> Result<(Tensor, Tensor)> {
    crate::dtype::shell_kernel_check(x.dtype(), "topk_cpu")?;
    no_complex(x, |_| {
        Error::Type(" topk does not support complex dtypes on CPU".into())
    })?;
    if x.dtype() == DType::Bool {
        return Err(Error::NotImplemented(
            "topk does not support bool dtypes on CPU".into(),
        ));
    }
    let d = wrap_dim(dim, x.ndim().max(1))?;
    let shape = x.shape();
    let size = rows(&shape, d).1;
    if k < 0 || k as usize > size {
        return Err(Error::Runtime("selected index k out of range".into()));
    }
    let k = k as usize;
    fn run<K: Key>(row: &[K], k: usize, largest: bool, sorted: bool) -> Vec<usize> {
        if k == 0 {
            return vec![];
        }
        let mut q: Vec<(K, usize)> = row.iter().copied().zip(0..).collect();
        let less = |a: &(K, usize), b: &(K, usize)| {
            if largest {
                desc(a.0, b.0)
            } else {
                asc(a.0, b.0)
            }
        };
        if k * 64 <= row.len() {
            stl::partial_sort(&mut q, k, &less);
        } else {
            stl::nth_element(&mut q, k - 1, &less);
            if sorted {
                stl::sort(&mut q[..k - 1], &less);
            }
        }
        q[..k].iter().map(|&(_, j)| j).collect()
    }
    let (plan, pos) = match keys_of(x)? {
        Keys::Float(v) => select_rows(&v, &shape, d, k, |r| run(r, k, largest, sorted)),
        Keys::Int(v) => select_rows(&v, &shape, d, k, |r| run(r, k, largest, sorted)),
    };
    let mut oshape = shape.clone();
    if !oshape.is_empty() {
        oshape[d] = k;
    }
    finish(x, plan, pos, &oshape, "TopkBackward0")
}

/// The output shape of a reduction along `d` that keeps one element.
fn reduced_shape(shape: &[usize], d: usize, keepdim: bool) -> Vec<usize> {
    let mut s = shape.to_vec();
    if !s.is_empty() {
        if keepdim {
            s[d] = 1;
        } else {
            s.remove(d);
        }
    }
    s
}

fn not_for_bool(x: &Tensor, kernel: &str) -> Result<()> {
    let dt = x.dtype();
    if dt == DType::Bool || dt.is_complex() || dt.is_shell_unsigned() {
        return Err(Error::NotImplemented(format!(
            "\"{kernel}\" not implemented for '{}'",
            dt.scalar_type_name()
        )));
    }
    Ok(())
}

/// `x.kthvalue(k, dim, keepdim)`: the k-th smallest along `dim` (KthvalueBackward0).
pub fn kthvalue(x: &Tensor, k: i64, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
    not_for_bool(x, "kthvalue_cpu")?;
    let d = wrap_dim(dim, x.ndim().max(1))?;
    let shape = x.shape();
    let size = rows(&shape, d).1;
    if size == 0 {
        return Err(Error::Index(format!(
            "kthvalue(): Expected reduction dim {d} to have non-zero size."
        )));
    }
    if k < 1 || k as usize > size {
        return Err(Error::Runtime(format!(
            "kthvalue(): selected number k out of range for dimension {d}"
        )));
    }
    let k = k as usize - 1;
    fn run<K: Key>(row: &[K], k: usize) -> Vec<usize> {
        let mut v: Vec<(K, usize)> = row.iter().copied().zip(0..).collect();
        // NaN counts as the largest (numpy)
        stl::quick_select(&mut v, k, &|a: &(K, usize), b: &(K, usize)| {
            (a.0.nan() && !b.0.nan()) || a.0 > b.0
        });
        vec![v[k].1]
    }
    let (plan, pos) = match keys_of(x)? {
        Keys::Float(v) => select_rows(&v, &shape, d, 1, |r| run(r, k)),
        Keys::Int(v) => select_rows(&v, &shape, d, 1, |r| run(r, k)),
    };
    finish(
        x,
        plan,
        pos,
        &reduced_shape(&shape, d, keepdim),
        "KthvalueBackward0",
    )
}

/// `x.median(dim, keepdim)` (or `nanmedian` with `ignore_nan`): the lower median along `dim`
/// and its index (MedianBackward1 / NanmedianBackward1). A row with a NaN gives its first NaN
/// unless NaNs are ignored.
pub fn median_dim(
    x: &Tensor,
    dim: i64,
    keepdim: bool,
    ignore_nan: bool,
) -> Result<(Tensor, Tensor)> {
    not_for_bool(x, "median_out")?;
    let d = wrap_dim(dim, x.ndim().max(1))?;
    let shape = x.shape();
    let size = rows(&shape, d).1;
    if size == 0 {
        return Err(Error::Index(format!(
            "median(): Expected reduction dim {d} to have non-zero size."
        )));
    }
    fn run<K: Key>(row: &[K], ignore_nan: bool) -> Vec<usize> {
        if !ignore_nan {
            if let Some(j) = row.iter().position(|v| v.nan()) {
                return vec![j];
            }
        }
        let n_nan = row.iter().filter(|v| v.nan()).count();
        // C++ division truncates: an all-NaN row picks rank 0
        let nth = (row.len() as i64 - n_nan as i64 - 1) / 2;
        let mut idx: Vec<usize> = (0..row.len()).collect();
        stl::nth_element(&mut idx, nth as usize, &|&i: &usize, &j: &usize| {
            let (a, b) = (row[i], row[j]);
            a < b || (a == b && i < j) || (ignore_nan && b.nan() && !a.nan())
        });
        vec![idx[nth as usize]]
    }
    let (plan, pos) = match keys_of(x)? {
        Keys::Float(v) => select_rows(&v, &shape, d, 1, |r| run(r, ignore_nan)),
        Keys::Int(v) => select_rows(&v, &shape, d, 1, |r| run(r, ignore_nan)),
    };
    let name = if ignore_nan {
        "NanmedianBackward1"
    } else {
        "MedianBackward1"
    };
    finish(x, plan, pos, &reduced_shape(&shape, d, keepdim), name)
}

/// The median of all elements (the lower one of an even count; NaN if any is NaN unless
/// `ignore_nan`; NaN for no elements). MedianBackward0 / NanmedianBackward0 share the gradient
/// among the elements equal to it.
pub fn median(x: &Tensor, ignore_nan: bool) -> Result<Tensor> {
    not_for_bool(x, "median_cpu")?;
    let name = if ignore_nan {
        "NanmedianBackward0"
    } else {
        "MedianBackward0"
    };
    let flat = reshape(&x.detached(), &[-1])?;
    let n = flat.numel();
    let pos = match keys_of(&flat)? {
        _ if x.device().is_meta() || n == 0 => None,
        Keys::Float(v) => {
            let n_nan = v.iter().filter(|a| a.is_nan()).count();
            if n_nan == n || (n_nan > 0 && !ignore_nan) {
                None
            } else {
                let nth = (n - n_nan - 1) / 2;
                let mut idx: Vec<usize> = (0..n).filter(|&i| !v[i].is_nan()).collect();
                idx.select_nth_unstable_by(nth, |&i, &j| v[i].total_cmp(&v[j]));
                Some(idx[nth])
            }
        }
        Keys::Int(v) => {
            let nth = (n - 1) / 2;
            let mut idx: Vec<usize> = (0..n).collect();
            idx.select_nth_unstable_by_key(nth, |&i| v[i]);
            Some(idx[nth])
        }
    };
    let out = match pos {
        Some(p) => backend::take(&flat, &Arc::new(vec![p]), &[])?,
        None if x.device().is_meta() => Tensor::on_meta(&[], x.dtype())?,
        None => {
            if !x.dtype().is_floating() {
                // no NaN in an integer tensor: only the empty one gets here
                return Err(Error::Runtime(
                    "median() operation does not have an identity for empty input tensor".into(),
                ));
            }
            let nan = Tensor::full(&[], f64::NAN.into(), x.dtype())?;
            backend::to_device(&nan, x.device())?
        }
    };
    if needs_grad(&[x])? {
        super::extrema::record_evenly_distributed(name, x, &out)?;
    }
    Ok(out)
}

/// `torch.searchsorted(sorted_sequence, values)`: for each value, the index at which inserting it
/// keeps the innermost rows of `seq` sorted: the first position whose element is not less than
/// it (`right`: greater than it), as PyTorch's binary search compares, so a NaN goes to the end.
/// `seq` is 1-D, or has the leading dims of `values` (one row per row of values); `sorter`
/// holds the indices that sort an unsorted `seq`. Both are compared in their promoted dtype; the
/// result is int64 (int32 with `out_int32`) and records nothing.
pub fn searchsorted(
    seq: &Tensor,
    values: &Tensor,
    right: bool,
    out_int32: bool,
    sorter: Option<&Tensor>,
) -> Result<Tensor> {
    let (ss, vs) = (seq.shape(), values.shape());
    if ss.is_empty() {
        return Err(Error::Runtime(
            "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension"
                .into(),
        ));
    }
    if ss.len() > 1 && vs.is_empty() {
        return Err(Error::Runtime(format!(
            "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim({}) and input value's dim(0) numel(1)",
            ss.len()
        )));
    }
    if ss.len() > 1 && (ss.len() != vs.len() || ss[..ss.len() - 1] != vs[..vs.len() - 1]) {
        return Err(Error::Runtime(format!(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor {ss:?} and input value tensor {vs:?}"
        )));
    }
    if let Some(s) = sorter {
        if s.shape() != ss {
            return Err(Error::Runtime(format!(
                "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor {ss:?}and got sorter tensor {:?}",
                s.shape()
            )));
        }
        if s.dtype() != DType::Int64 {
            return Err(Error::Runtime(format!(
                "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype {}",
                s.dtype().scalar_type_name()
            )));
        }
    }
    let dt = crate::dtype::result_type(&[
        (seq.dtype(), seq.priority()),
        (values.dtype(), values.priority()),
    ])?;
    if dt == DType::Bool || dt.is_complex() || dt.is_shell_unsigned() {
        return Err(Error::NotImplemented(format!(
            "\"searchsorted_out_cpu\" not implemented for '{}'",
            dt.scalar_type_name()
        )));
    }
    let out_dt = if out_int32 {
        DType::Int32
    } else {
        DType::Int64
    };
    if seq.device().is_meta() || values.device().is_meta() {
        return Tensor::on_meta(&vs, out_dt);
    }
    let n = *ss.last().unwrap_or(&1);
    let order: Option<Vec<usize>> = match sorter {
        Some(s) => Some(
            s.try_to_vec::<i64>()?
                .into_iter()
                .map(|i| {
                    if i < 0 || i as usize >= n {
                        Err(Error::Runtime(
                            "torch.searchsorted(): sorter index out of range".into(),
                        ))
                    } else {
                        Ok(i as usize)
                    }
                })
                .collect::<Result<_>>()?,
        ),
        None => None,
    };
    let per_row = *vs.last().unwrap_or(&1);
    fn run<K: Key>(
        seq: &[K],
        vals: &[K],
        n: usize,
        per_row: usize,
        one_row: bool,
        right: bool,
        order: Option<&[usize]>,
    ) -> Vec<i64> {
        vals.iter()
            .enumerate()
            .map(|(i, &v)| {
                let base = if one_row { 0 } else { (i / per_row.max(1)) * n };
                let (mut start, mut end) = (0usize, n);
                while start < end {
                    let mid = start + ((end - start) >> 1);
                    let m = match order {
                        Some(o) => seq[base + o[base + mid]],
                        None => seq[base + mid],
                    };
                    // PyTorch's `!(m > v)` / `!(m >= v)`: an unordered (NaN) pair moves right
                    let before = match m.partial_cmp(&v) {
                        Some(std::cmp::Ordering::Greater) => false,
                        Some(std::cmp::Ordering::Equal) => right,
                        _ => true,
                    };
                    if before {
                        start = mid + 1;
                    } else {
                        end = mid;
                    }
                }
                start as i64
            })
            .collect()
    }
    let (s2, v2) = (backend::cast(seq, dt)?, backend::cast(values, dt)?);
    let one_row = ss.len() == 1;
    let pos = if dt.is_floating() {
        let (s, v) = (s2.try_to_vec::<f64>()?, v2.try_to_vec::<f64>()?);
        run(&s, &v, n, per_row, one_row, right, order.as_deref())
    } else {
        let (s, v) = (s2.try_to_vec::<i64>()?, v2.try_to_vec::<i64>()?);
        run(&s, &v, n, per_row, one_row, right, order.as_deref())
    };
    let mut out = Tensor::from_vec(pos, &vs)?;
    if out_int32 {
        out = backend::cast(&out, DType::Int32)?;
    }
    if values.device() != out.device() {
        out = backend::to_device(&out, values.device())?;
    }
    Ok(out)
}
