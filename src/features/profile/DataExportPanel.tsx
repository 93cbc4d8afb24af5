import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { dataExportMachine, exportedMessage } from '../../../machines/dataExport.machine';
import { useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { DescribedAction } from '../../components/form/DescribedAction';
import { downloadFile } from '../../components/handOver';

const browserDataExport = dataExportMachine.provide({ actions: { saveFile: (_, file) => downloadFile(file, 'application/json') } });

/** "Download my data" (GDPR art. 15 and 20): everything Carnivo holds about the member, as a JSON file. */
export function DataExportPanel() {
  const flow = useFlowActor(useFlows().dataExport ?? browserDataExport);
  const saved = useSelector(flow, (snapshot) =>
    snapshot.hasTag('success') && snapshot.context.filename ? exportedMessage(snapshot.context.filename) : null,
  );
  const headingId = useId();

  return (
    <section className="profile-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Your data</h2>
      <DescribedAction
        flow={flow}
        event={{ type: 'export.requested' }}
        notice={saved}
        description="A JSON file with your account, profile, goals, subscriptions and invoices."
        label="Download my data"
        busyLabel="Preparing..."
      />
    </section>
  );
}
