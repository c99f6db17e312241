# A small PyTorch training-like loop with NVTX steps, a host sync each step and some CPU work.
import time, torch
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 1024)).cuda()
opt = torch.optim.SGD(m.parameters(), lr=1e-3)
x = torch.randn(256, 1024, device="cuda")
for step in range(30):
    torch.cuda.nvtx.range_push("step")
    with torch.cuda.nvtx.range("forward"):
        loss = m(x).square().mean()
    with torch.cuda.nvtx.range("backward"):
        loss.backward()
    opt.step(); opt.zero_grad()
    with torch.cuda.nvtx.range("cpu_work"):
        t = time.perf_counter()
        while time.perf_counter() - t < 0.002: pass
    print(step, float(loss))       # a host sync: .item()
    torch.cuda.nvtx.range_pop()
