/** Injection token of the gate's own options (GateConfig.gate). */
export const GATE_OPTIONS = Symbol('warden.gate.options');
