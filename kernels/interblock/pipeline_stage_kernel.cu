// pipeline_stage_kernel: one stage of a pipeline; each thread waits until the previous
// stage's counter reaches N, transforms its element, and counts itself done.
//
// Source: [004] "Synchronization Complete Guide", "Advanced Patterns" > "Wave Synchronization"
// >
// "Pipeline Synchronization".
// Status: redundant and fragile. run_pipeline (host, not ported) launches the stages one
// after another in the default stream, so the previous stage has finished before this one
// starts and the spin never waits. Were stages launched concurrently, the spin would be
// inter-kernel busy-waiting with no forward-progress guarantee (deadlock if the waiting
// stage occupies the GPU), and the counter (a relaxed atomic, Guide 10.14) would not order
// the reads of input_buffer after the previous stage's writes without a __threadfence() on
// both sides. The counters are also never reset between runs.
// Launch: stage 2 (data * 2 + 1) with the counters as stages 0 and 1 left them: N = 2,
// stage_counters = {2, 2, 0, 0}, input {1, 2} -> output {3, 5}, stage_counters[2] = 2.
//
// Weak models: tso and gpu give exactly the same outcome (exhaustive): the previous stage's
// counter already holds N, and each thread writes only its own element.
//
//@ launch grid=1 block=2
//@ arg input_buffer: float[2] = {1, 2}
//@ arg output_buffer: float[2] = zeros
//@ arg stage_counters: int[4] = {2, 2, 0, 0}
//@ arg stage_id = 2
//@ arg pipeline_depth = 4
//@ arg N = 2
//@ observe output_buffer stage_counters[2]
//@ expect sc: exactly output_buffer[0]=3 output_buffer[1]=5 stage_counters[2]=2
//@ expect tso,gpu: exactly output_buffer[0]=3 output_buffer[1]=5 stage_counters[2]=2
//@ expect all: no diagnostics

// Multi-stage pipeline with stage synchronization
__global__ void pipeline_stage_kernel(float* input_buffer, float* output_buffer,
                                     int* stage_counters, int stage_id,
                                     int pipeline_depth, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;

    if (tid < N) {
        // Wait for previous stage to complete
        if (stage_id > 0) {
            while (atomicAdd(&stage_counters[stage_id - 1], 0) < N) {
                // Busy wait for previous stage
            }
        }

        // Process data for this stage
        float data = input_buffer[tid];

        // Stage-specific processing
        switch (stage_id) {
            case 0: data = sqrt(fabs(data)); break;
            case 1: data = sin(data); break;
            case 2: data = data * 2.0f + 1.0f; break;
            default: data = exp(-data); break;
        }

        output_buffer[tid] = data;

        // Signal completion of this thread's work
        atomicAdd(&stage_counters[stage_id], 1);
    }
}
