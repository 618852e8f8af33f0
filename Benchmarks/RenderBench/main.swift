print("render-bench")
