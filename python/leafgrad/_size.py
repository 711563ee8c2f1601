"""`torch.Size`: the shape of a tensor, a tuple of ints."""


class Size(tuple):
    """The shape of a tensor: a tuple of ints (slices and `+` give Sizes again).

    >>> s = torch.zeros(2, 3).shape
    >>> s
    torch.Size([2, 3])
    >>> s.numel(), s == (2, 3)
    (6, True)
    >>> s[1:], s + (4,)
    (torch.Size([3]), torch.Size([2, 3, 4]))
    """

    __slots__ = ()

    def __new__(cls, sizes=()):
        return super().__new__(cls, (int(s) for s in sizes))

    def __repr__(self):
        return "torch.Size([" + ", ".join(str(s) for s in self) + "])"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, i):
        r = tuple.__getitem__(self, i)
        return Size(r) if isinstance(i, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return Size(tuple(self) * n)

    __rmul__ = __mul__

    def __reduce__(self):
        return (Size, (tuple(self),))
