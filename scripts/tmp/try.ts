import { startCluster } from '../../supabase/harness/cluster';
import { createWaitlistDatabase } from '../../supabase/harness/migrations';
const c = await startCluster();
try { const info = await createWaitlistDatabase(c); console.log('ok', info.database); } catch (e) { console.error(String(e)); } finally { await c.stop(); }
