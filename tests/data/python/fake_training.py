# The seeds' workflow on the stand-in CUPTI (issue 45, point 4): a training loop shaped like a
# PyTorch one (a model of two Linear layers, a step function, three steps), whose Linear.forward
# launches a kernel through libfake_cuda_launch.so ($FAKE_CUDA_LIBRARY): recorded by Strata
# alone, the kernels must come out launched from Linear.forward, under train_step.
import ctypes
import os

# PyDLL: the launch holds the GIL, as a C extension that does not release it does.
cuda = ctypes.PyDLL(os.environ["FAKE_CUDA_LIBRARY"])
cuda.fake_cuda_launch.argtypes = [ctypes.c_char_p, ctypes.c_uint64]


class Linear:
    def __init__(self, name):
        self.name = name

    def forward(self, x):
        cuda.fake_cuda_launch(b"gemm_" + self.name.encode(), 50_000)
        return x + 1


class Model:
    def __init__(self):
        self.layers = [Linear("in"), Linear("out")]

    def forward(self, x):
        for layer in self.layers:
            x = layer.forward(x)
        return x


def train_step(model, step):
    return model.forward(step)


def main():
    assert cuda.fake_cuda_init() == 1  # cuInit
    model = Model()
    for step in range(3):
        train_step(model, step)


main()
