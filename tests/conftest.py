import matplotlib

# Tests draw off screen. Only this process: kernels started by nbval keep their inline backend.
matplotlib.use("Agg")
